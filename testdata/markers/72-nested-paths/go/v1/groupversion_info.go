// Package v1 contains the paths.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=paths.kbts.test
package v1
