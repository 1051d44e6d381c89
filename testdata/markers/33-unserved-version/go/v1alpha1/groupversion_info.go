// Package v1alpha1 contains the unserved.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=unserved.kbts.test
package v1alpha1
