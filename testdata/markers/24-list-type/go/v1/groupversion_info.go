// Package v1 contains the listtype.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=listtype.kbts.test
package v1
