/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Enforcement is what a budget does about pods that would exceed it.
// Report: count and report only (status, events, metrics). Deny: also refuse such pods at admission.
// +kubebuilder:validation:Enum=Report;Deny
type Enforcement string

// GPUBudgetResource is one extended resource a budget counts, and what one unit of it is worth in GPUs.
type GPUBudgetResource struct {
	// name is the extended resource: nvidia.com/gpu, amd.com/gpu, a MIG profile such as nvidia.com/mig-1g.10gb, ...
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// weight is how many GPUs one unit of this resource counts as, a decimal written as a string:
	// "1" for a whole GPU, "0.125" (or "125m") for a MIG slice that is an eighth of one. Default "1".
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]{1,3})?|[0-9]+m)$`
	// +optional
	Weight string `json:"weight,omitempty"`
}

// GPUBudgetReservation holds GPUs for a pod a Deny budget admitted that the caches may not have seen
// yet. Only the TypeScript operator's webhook writes them; this port keeps live ones and drops expired ones.
type GPUBudgetReservation struct {
	Pod                string      `json:"pod"`
	PodUID             string      `json:"podUID"`
	PodResourceVersion string      `json:"podResourceVersion,omitempty"`
	MilliGPUs          int64       `json:"milliGPUs"`
	ExpiresAt          metav1.Time `json:"expiresAt"`
}

// GPUBudgetSpec caps the GPUs the pods of one namespace (or the pods a selector picks in it) may hold.
type GPUBudgetSpec struct {
	// maxGPUs is the most GPUs the selected pods may hold together.
	// +kubebuilder:validation:Minimum=0
	MaxGPUs int64 `json:"maxGPUs"`

	// selector picks the pods that count against this budget; all pods of the namespace when absent.
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty"`

	// resourceName is the extended resource counted when resources is empty.
	// +kubebuilder:default="nvidia.com/gpu"
	// +optional
	ResourceName string `json:"resourceName,omitempty"`

	// resources lists several extended resources counted together, each with a weight in GPUs.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=32
	// +optional
	Resources []GPUBudgetResource `json:"resources,omitempty"`

	// enforcement is Report (count and report) or Deny (also refuse pods that would exceed the cap).
	// +kubebuilder:default=Report
	// +optional
	Enforcement Enforcement `json:"enforcement,omitempty"`
}

// GPUBudgetStatus is what the controller observed.
type GPUBudgetStatus struct {
	// allocatedGPUs is the sum of the GPUs the counted pods hold, rounded up to a whole GPU. Counted pods
	// are those the selector picks that are not Succeeded or Failed (ResourceQuota's rule; a terminating
	// pod counts until its deletionTimestamp plus deletionGracePeriodSeconds).
	// +optional
	AllocatedGPUs *int64 `json:"allocatedGPUs,omitempty"`

	// podCount is the number of counted pods that hold at least one GPU.
	// +optional
	PodCount *int32 `json:"podCount,omitempty"`

	// resourceClaimPods is how many selected pods claim devices through resourceClaims (DRA), not counted.
	// +optional
	ResourceClaimPods int32 `json:"resourceClaimPods,omitempty"`

	// reservations are GPUs held for pods admitted under a Deny budget but not yet seen by every cache.
	// +optional
	Reservations []GPUBudgetReservation `json:"reservations,omitempty"`

	// observedGeneration is the spec generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// averageUtilization and idleGPUs come from Prometheus in the TypeScript operator (--prometheus-url);
	// this port does not query Prometheus and leaves them as they are.
	// +optional
	AverageUtilization *int32 `json:"averageUtilization,omitempty"`
	// +optional
	IdleGPUs *int32 `json:"idleGPUs,omitempty"`

	// conditions: Ready is True (WithinBudget) or False (BudgetExceeded), with a message like "6/4 GPUs".
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// GPUBudget is a GPU budget for the pods of one namespace.
type GPUBudget struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is a standard object metadata
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec defines the desired state of GPUBudget
	// +required
	Spec GPUBudgetSpec `json:"spec"`

	// status defines the observed state of GPUBudget
	// +optional
	Status GPUBudgetStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// GPUBudgetList contains a list of GPUBudget
type GPUBudgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []GPUBudget `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &GPUBudget{}, &GPUBudgetList{})
		return nil
	})
}
