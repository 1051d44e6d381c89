// Package v1alpha1 contains the hubspoke.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=hubspoke.kbts.test
package v1alpha1
