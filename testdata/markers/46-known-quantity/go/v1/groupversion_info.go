// Package v1 contains the quantity.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=quantity.kbts.test
package v1
