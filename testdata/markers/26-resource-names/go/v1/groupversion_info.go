// Package v1 contains the names.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=names.kbts.test
package v1
