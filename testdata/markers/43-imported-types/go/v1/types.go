package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type OfficeSpec struct {
	// address comes from another file.
	Address Address `json:"address"`
	// country comes from another file too.
	// +optional
	Country Country `json:"country,omitempty"`
	// branches reuse the imported type.
	// +optional
	Branches []Address `json:"branches,omitempty"`
}

// +kubebuilder:object:root=true

// Office is a test kind.
type Office struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec OfficeSpec `json:"spec,omitempty"`
}
