// Package v1 contains the precedence.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=precedence.kbts.test
package v1
