// Package v2 contains the multi.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=multi.kbts.test
package v2
