package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type HullSpec struct {
	// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get

	// Three groups up from a field, inside the type: no field claims it, and it is not package-level.

	// length has no question mark, but the package is optional (see below).
	Length int32 `json:"length"`
	// name is required explicitly.
	// +required
	Name string `json:"name"`
}

// The marker block above Hull, apart from its doc comment, holds a package-level marker: controller-gen
// reads it for the whole package, so every field of v1 is optional unless marked required.
// +kubebuilder:validation:Optional

// Hull is a test kind.
// +kubebuilder:object:root=true
type Hull struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              HullSpec `json:"spec"`
}
