// Package v1 contains the plurals.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=plurals.kbts.test
package v1
