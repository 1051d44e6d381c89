// Package v1 contains the selector.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=selector.kbts.test
package v1
