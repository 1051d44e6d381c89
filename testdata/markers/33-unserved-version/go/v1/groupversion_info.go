// Package v1 contains the unserved.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=unserved.kbts.test
package v1
