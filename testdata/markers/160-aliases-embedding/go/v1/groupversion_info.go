// Package v1 contains the aliases.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=aliases.kbts.test
package v1
