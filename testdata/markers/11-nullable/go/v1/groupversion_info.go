// Package v1 contains the nullable.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=nullable.kbts.test
package v1
