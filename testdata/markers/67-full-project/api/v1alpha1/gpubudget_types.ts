import type { Condition, int64, LabelSelector, ListMeta, ObjectMeta } from "@kbts/runtime";

// GPUBudgetSpec defines the desired state of GPUBudget.
export interface GPUBudgetSpec {
  // maxGPUs is the most GPUs that pods in the namespace may request.
  // +kubebuilder:validation:Minimum=0
  maxGPUs: int64;
  // +optional
  selector?: LabelSelector;
}

// GPUBudgetStatus defines the observed state of GPUBudget.
export interface GPUBudgetStatus {
  // used is how many GPUs are requested now.
  // +optional
  used?: int64;
  // conditions represent the current state of the GPUBudget resource.
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=gb
// +kubebuilder:printcolumn:name="Max",type=integer,JSONPath=".spec.maxGPUs"
// +kubebuilder:printcolumn:name="Used",type=integer,JSONPath=".status.used"
// GPUBudget is the Schema for the gpubudgets API.
export interface GPUBudget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // spec defines the desired state of GPUBudget
  // +required
  spec: GPUBudgetSpec;
  // status defines the observed state of GPUBudget
  // +optional
  status?: GPUBudgetStatus;
}

// +kubebuilder:object:root=true
// GPUBudgetList contains a list of GPUBudget.
export interface GPUBudgetList {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: GPUBudget[];
}
