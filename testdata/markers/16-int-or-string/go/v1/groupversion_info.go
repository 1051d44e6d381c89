// Package v1 contains the intstr.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=intstr.kbts.test
package v1
