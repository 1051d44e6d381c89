// Package v1 contains the bytes.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=bytes.kbts.test
package v1
