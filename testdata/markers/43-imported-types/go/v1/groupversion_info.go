// Package v1 contains the imports.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=imports.kbts.test
package v1
