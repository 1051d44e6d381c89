// Package v1 contains the nullhint.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=nullhint.kbts.test
package v1
