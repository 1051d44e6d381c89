package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type BoatSpec struct {
	// fieldv1beta1 exists only in v1beta1.
	// +optional
	Fieldv1beta1 string `json:"fieldv1beta1,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:deprecatedversion:warning="deprecated.kbts.test/v1beta1 Boat is deprecated; use deprecated.kbts.test/v1 Boat, which has the same fields and a few more things you will want"

// Boat is a test kind.
type Boat struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec BoatSpec `json:"spec,omitempty"`
}
