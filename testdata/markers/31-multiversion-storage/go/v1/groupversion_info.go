// Package v1 contains the multi.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=multi.kbts.test
package v1
