// Package v1 contains the embedded.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=embedded.kbts.test
package v1
