// Package v1 contains the typeval.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=typeval.kbts.test
package v1
