// Package v1 contains the syntax.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=syntax.kbts.test
package v1
