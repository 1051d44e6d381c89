// Package v1 contains the floatfmt.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=floatfmt.kbts.test
package v1
