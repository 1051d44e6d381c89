// Package v1 contains the time.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=time.kbts.test
package v1
