// Package v1 contains the utility.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=utility.kbts.test
package v1
