package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Corner is a point, written as a type literal rather than an interface.
type Corner struct {
	X string `json:"x"`
	// +optional
	Y string `json:"y,omitempty"`
}

type FrameSpec struct {
	// corners uses the Array<T> spelling.
	// +optional
	Corners []Corner `json:"corners,omitempty"`
	// names uses ReadonlyArray<T>.
	// +optional
	Names []string `json:"names,omitempty"`
	// origin is declared in another file and re-exported.
	Origin Corner `json:"origin"`
	// later is declared further down this file.
	// +optional
	Later *Later `json:"later,omitempty"`
}

// Later is declared after its first use.
type Later struct {
	// +optional
	Value string `json:"value,omitempty"`
}

// +kubebuilder:object:root=true

// Frame is a test kind.
type Frame struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec FrameSpec `json:"spec,omitempty"`
}
