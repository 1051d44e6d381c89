// Package v1 contains the docs.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=docs.kbts.test
package v1
