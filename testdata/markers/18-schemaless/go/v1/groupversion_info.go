// Package v1 contains the schemaless.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=schemaless.kbts.test
package v1
