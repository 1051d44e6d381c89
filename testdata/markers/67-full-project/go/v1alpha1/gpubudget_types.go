package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GPUBudgetSpec defines the desired state of GPUBudget.
type GPUBudgetSpec struct {
	// maxGPUs is the most GPUs that pods in the namespace may request.
	// +kubebuilder:validation:Minimum=0
	MaxGPUs int64 `json:"maxGPUs"`
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty"`
}

// GPUBudgetStatus defines the observed state of GPUBudget.
type GPUBudgetStatus struct {
	// used is how many GPUs are requested now.
	// +optional
	Used int64 `json:"used,omitempty"`
	// conditions represent the current state of the GPUBudget resource.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=gb
// +kubebuilder:printcolumn:name="Max",type=integer,JSONPath=".spec.maxGPUs"
// +kubebuilder:printcolumn:name="Used",type=integer,JSONPath=".status.used"

// GPUBudget is the Schema for the gpubudgets API.
type GPUBudget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// spec defines the desired state of GPUBudget
	// +required
	Spec GPUBudgetSpec `json:"spec"`
	// status defines the observed state of GPUBudget
	// +optional
	Status GPUBudgetStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// GPUBudgetList contains a list of GPUBudget.
type GPUBudgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []GPUBudget `json:"items"`
}
