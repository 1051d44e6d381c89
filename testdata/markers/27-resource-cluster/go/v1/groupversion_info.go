// Package v1 contains the cluster.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=cluster.kbts.test
package v1
