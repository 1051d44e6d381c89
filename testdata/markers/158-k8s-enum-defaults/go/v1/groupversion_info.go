// Package v1 contains the k8senum.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=k8senum.kbts.test
package v1
