// Package v1 contains the conditions.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=conditions.kbts.test
package v1
