// Package v1 contains the orchard.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=orchard.kbts.test
package v1
