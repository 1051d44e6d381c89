// Package v1 contains the maptype.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=maptype.kbts.test
package v1
