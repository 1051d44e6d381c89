// Package v1 contains the basics.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=basics.kbts.test
package v1
