// Package v1 contains the core.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=core.kbts.test
package v1
