// Package v1 contains the example.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=example.kbts.test
package v1
