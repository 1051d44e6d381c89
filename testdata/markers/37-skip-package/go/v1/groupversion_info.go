// Package v1 contains the skippkg.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=skippkg.kbts.test
package v1
