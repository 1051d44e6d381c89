// Package v1 contains the typemarker.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=typemarker.kbts.test
package v1
