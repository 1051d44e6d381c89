// Package v1 contains the numeric.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=numeric.kbts.test
package v1
