// Package v1 contains the numbers.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=numbers.kbts.test
package v1
