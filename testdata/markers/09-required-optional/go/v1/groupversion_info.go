// Package v1 contains the reqopt.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=reqopt.kbts.test
package v1
