// Package v1 contains the jsdoc.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=jsdoc.kbts.test
package v1
