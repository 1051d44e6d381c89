// Package v1 contains the ints.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=ints.kbts.test
package v1
