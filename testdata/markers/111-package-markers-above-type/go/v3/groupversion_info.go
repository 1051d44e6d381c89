// Package v3 contains the placement.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=placement.kbts.test
package v3
