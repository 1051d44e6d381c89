// Package v1 contains the keyorder.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=keyorder.kbts.test
package v1
