// Package v1 contains the objdefaults.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=objdefaults.kbts.test
package v1
