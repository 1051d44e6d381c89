// Package v1 contains the select.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=select.kbts.test
package v1
