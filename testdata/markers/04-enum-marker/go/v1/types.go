package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type LightSpec struct {
	// color is one of three strings.
	// +kubebuilder:validation:Enum=Red;Amber;Green
	Color string `json:"color"`
	// level uses integer enum values.
	// +kubebuilder:validation:Enum=1;2;3
	// +optional
	Level int32 `json:"level,omitempty"`
	// answer uses quoted values that look like other types.
	// +kubebuilder:validation:Enum="True";"False";"1"
	// +optional
	Answer string `json:"answer,omitempty"`
	// mode uses the brace list form.
	// +kubebuilder:validation:Enum={fast,slow}
	// +optional
	Mode string `json:"mode,omitempty"`
}

// +kubebuilder:object:root=true

// Light is a test kind.
type Light struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec LightSpec `json:"spec,omitempty"`
}
