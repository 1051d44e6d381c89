// Package v1 contains the vname.kbts.test API.
// +versionName=v1beta2
// +kubebuilder:object:generate=true
// +groupName=vname.kbts.test
package v1
