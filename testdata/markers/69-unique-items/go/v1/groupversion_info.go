// Package v1 contains the unique.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=unique.kbts.test
package v1
