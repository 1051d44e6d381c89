// Package v1 contains the oneof.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=oneof.kbts.test
package v1
