// Package v1 contains the celfield.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=celfield.kbts.test
package v1
