// Package v1 contains the podtemplate.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=podtemplate.kbts.test
package v1
