// Package v1 contains the strings.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=strings.kbts.test
package v1
