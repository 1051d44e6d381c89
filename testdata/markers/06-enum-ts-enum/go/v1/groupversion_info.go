// Package v1 contains the tsenums.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=tsenums.kbts.test
package v1
