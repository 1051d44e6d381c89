// Package v1alpha1 contains the capacity.lab.example.com API.
// +kubebuilder:object:generate=true
// +groupName=capacity.lab.example.com
package v1alpha1
