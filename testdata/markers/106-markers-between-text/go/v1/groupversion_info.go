// Package v1 contains the interleave.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=interleave.kbts.test
package v1
