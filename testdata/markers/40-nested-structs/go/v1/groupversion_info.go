// Package v1 contains the nested.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=nested.kbts.test
package v1
