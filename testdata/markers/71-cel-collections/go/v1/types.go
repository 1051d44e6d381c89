package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Rule struct {
	// +kubebuilder:validation:MaxLength=32
	Name string `json:"name"`
	// +kubebuilder:validation:Maximum=100
	Weight int32 `json:"weight"`
}

// RulebookSpec uses CEL over lists and maps, bounded so the API server can cost the rules.
// +kubebuilder:validation:XValidation:rule="self.rules.all(r, r.weight <= self.maxWeight)",message="a rule is heavier than maxWeight"
// +kubebuilder:validation:XValidation:rule="!has(self.labels) || self.labels.all(k, k.startsWith('rb-'))",message="label keys start with rb-"
type RulebookSpec struct {
	// +kubebuilder:validation:Maximum=100
	MaxWeight int32 `json:"maxWeight"`
	// rules must have unique names.
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:XValidation:rule="self.all(x, self.exists_one(y, y.name == x.name))",message="rule names must be unique"
	Rules []Rule `json:"rules"`
	// +kubebuilder:validation:MaxProperties=8
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
}

// +kubebuilder:object:root=true

// Rulebook is a test kind.
type Rulebook struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec RulebookSpec `json:"spec,omitempty"`
}
