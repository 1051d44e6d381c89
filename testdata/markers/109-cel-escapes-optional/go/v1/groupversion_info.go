// Package v1 contains the celescapes.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=celescapes.kbts.test
package v1
