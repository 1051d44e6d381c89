// Package v1 contains the marshal.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=marshal.kbts.test
package v1
