// Package v1 contains the defaults.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=defaults.kbts.test
package v1
