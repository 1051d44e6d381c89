// Package v1 contains the preserve.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=preserve.kbts.test
package v1
