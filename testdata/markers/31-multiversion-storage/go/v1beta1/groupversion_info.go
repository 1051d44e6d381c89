// Package v1beta1 contains the multi.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=multi.kbts.test
package v1beta1
