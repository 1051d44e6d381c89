// Package v1 contains the unknownok.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=unknownok.kbts.test
package v1
