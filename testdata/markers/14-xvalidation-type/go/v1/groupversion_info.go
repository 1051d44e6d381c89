// Package v1 contains the celtype.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=celtype.kbts.test
package v1
