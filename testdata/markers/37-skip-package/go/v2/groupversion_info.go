// Package v2 contains the skippkg.kbts.test API.
// +kubebuilder:object:generate=true
// +kubebuilder:skip
// +groupName=skippkg.kbts.test
package v2
