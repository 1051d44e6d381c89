// Package v1 contains the floats.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=floats.kbts.test
package v1
