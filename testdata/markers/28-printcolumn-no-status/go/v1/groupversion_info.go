// Package v1 contains the printcol.kbts.test API.
// +kubebuilder:object:generate=true
// +groupName=printcol.kbts.test
package v1
