// Package v1 contains the refs.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=refs.kbts.test
package v1
