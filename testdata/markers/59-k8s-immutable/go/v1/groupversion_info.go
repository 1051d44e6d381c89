// Package v1 contains the immutable.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=immutable.kbts.test
package v1
