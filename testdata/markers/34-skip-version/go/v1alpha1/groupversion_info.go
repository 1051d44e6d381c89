// Package v1alpha1 contains the skipver.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=skipver.kbts.test
package v1alpha1
