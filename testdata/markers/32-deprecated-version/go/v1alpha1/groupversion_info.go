// Package v1alpha1 contains the deprecated.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=deprecated.kbts.test
package v1alpha1
