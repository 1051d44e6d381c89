// Package v2 contains the hubspoke.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=hubspoke.kbts.test
package v2
