// Package v1 contains the quoting.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=quoting.kbts.test
package v1
