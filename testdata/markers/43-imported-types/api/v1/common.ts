// Address is shared by several kinds.
export interface Address {
  // street is required.
  // +kubebuilder:validation:MinLength=1
  street: string;
  // +optional
  city?: string;
}

// Country is a two-letter code.
// +kubebuilder:validation:Pattern=`^[A-Z]{2}$`
export type Country = string;
