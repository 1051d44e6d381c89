// Package v1 contains the enums.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=enums.kbts.test
package v1
