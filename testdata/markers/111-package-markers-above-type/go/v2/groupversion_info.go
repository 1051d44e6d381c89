// Package v2 contains the placement.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=placement.kbts.test
package v2
