// Package v1 contains the basic.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=basic.kbts.test
package v1
