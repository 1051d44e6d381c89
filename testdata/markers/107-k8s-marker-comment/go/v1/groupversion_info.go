// Package v1 contains the k8scomment.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=k8scomment.kbts.test
package v1
