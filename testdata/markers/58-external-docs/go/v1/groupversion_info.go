// Package v1 contains the extdocs.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=extdocs.kbts.test
package v1
