// Package v1 contains the repeat.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=repeat.kbts.test
package v1
