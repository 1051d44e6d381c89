// Package v1 contains the meta.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=meta.kbts.test
package v1
