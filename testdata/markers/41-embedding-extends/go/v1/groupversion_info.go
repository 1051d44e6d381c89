// Package v1 contains the embed.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=embed.kbts.test
package v1
