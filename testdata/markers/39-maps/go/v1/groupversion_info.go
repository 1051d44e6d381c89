// Package v1 contains the maps.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=maps.kbts.test
package v1
