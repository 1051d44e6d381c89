// Package v1 contains the columns.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=columns.kbts.test
package v1
