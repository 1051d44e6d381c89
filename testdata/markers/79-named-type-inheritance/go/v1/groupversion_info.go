// Package v1 contains the named.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=named.kbts.test
package v1
