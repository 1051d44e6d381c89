// Package v1 contains the enumlist.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=enumlist.kbts.test
package v1
