// Package v1 contains the raw.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=raw.kbts.test
package v1
