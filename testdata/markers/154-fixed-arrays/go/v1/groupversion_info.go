// Package v1 contains the arrays.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=arrays.kbts.test
package v1
