package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Named carries a name.
type Named struct {
	// name is inherited.
	Name string `json:"name"`
	// +optional
	Alias string `json:"alias,omitempty"`
}

// Sized carries a size.
// +kubebuilder:validation:XValidation:rule="!has(self.size) || self.size > 0",message="size must be positive"
type Sized struct {
	// +optional
	Size int32 `json:"size,omitempty"`
}

// CarSpec merges two embedded types with its own fields.
type CarSpec struct {
	Named `json:",inline"`
	Sized `json:",inline"`
	// wheels is the car's own field.
	Wheels int32 `json:"wheels"`
}

// +kubebuilder:object:root=true

// Car is a test kind.
type Car struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec CarSpec `json:"spec,omitempty"`
}
