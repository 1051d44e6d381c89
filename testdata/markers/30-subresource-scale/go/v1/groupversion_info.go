// Package v1 contains the scale.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=scale.kbts.test
package v1
