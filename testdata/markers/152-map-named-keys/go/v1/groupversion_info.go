// Package v1 contains the mapkeys.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=mapkeys.kbts.test
package v1
