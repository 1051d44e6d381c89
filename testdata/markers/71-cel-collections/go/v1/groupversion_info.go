// Package v1 contains the celcoll.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=celcoll.kbts.test
package v1
