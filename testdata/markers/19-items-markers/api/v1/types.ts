import type { int32, ObjectMeta } from "@kbts/runtime";

export interface ListsSpec {
  // ports are each between 1 and 65535.
  // +kubebuilder:validation:items:Minimum=1
  // +kubebuilder:validation:items:Maximum=65535
  // +kubebuilder:validation:items:ExclusiveMaximum=false
  // +kubebuilder:validation:items:MultipleOf=1
  // +optional
  ports?: int32[];
  // names are short lowercase words.
  // +kubebuilder:validation:items:MinLength=1
  // +kubebuilder:validation:items:MaxLength=8
  // +kubebuilder:validation:items:Pattern=`^[a-z]+$`
  // +optional
  names?: string[];
  // sizes come from a fixed set.
  // +kubebuilder:validation:items:Enum=S;M;L
  // +optional
  sizes?: string[];
  // emails have a format and a rule.
  // +kubebuilder:validation:items:Format=email
  // +kubebuilder:validation:items:XValidation:rule="self.endsWith('.test')",message="must be a .test address"
  // +optional
  emails?: string[];
  // groups are lists with bounded length.
  // +kubebuilder:validation:items:MinItems=1
  // +kubebuilder:validation:items:MaxItems=2
  // +kubebuilder:validation:items:UniqueItems=false
  // +optional
  groups?: string[][];
  // labels are non-empty maps.
  // +kubebuilder:validation:items:MinProperties=1
  // +kubebuilder:validation:items:MaxProperties=4
  // +optional
  labels?: Record<string, string>[];
}

// +kubebuilder:object:root=true
// Lists is a test kind.
export interface Lists {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ListsSpec;
}
