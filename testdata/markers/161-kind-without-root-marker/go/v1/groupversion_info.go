// Package v1 has a kind without +kubebuilder:object:root: controller-gen finds kinds by their
// embedded TypeMeta and ObjectMeta, so the marker is not needed for a CRD.
// +kubebuilder:object:generate=true
// +groupName=noroot.kbts.test
package v1
