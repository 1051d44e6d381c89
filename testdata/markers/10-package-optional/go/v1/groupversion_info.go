// Package v1 contains the pkgopt.kbts.test API.
// +kubebuilder:validation:Optional
// +kubebuilder:object:generate=true
// +groupName=pkgopt.kbts.test
package v1
