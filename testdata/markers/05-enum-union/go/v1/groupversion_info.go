// Package v1 contains the unions.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=unions.kbts.test
package v1
