// Package v1 contains the items.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=items.kbts.test
package v1
