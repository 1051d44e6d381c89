// Package v1 contains the props.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=props.kbts.test
package v1
