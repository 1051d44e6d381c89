package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type TextSpec struct {
	// # hash starts this line.
	// +optional
	A string `json:"a,omitempty"`
	// & ampersand starts this line.
	// +optional
	B string `json:"b,omitempty"`
	// ! bang starts this line.
	// +optional
	C string `json:"c,omitempty"`
	// % percent starts this line.
	// +optional
	D string `json:"d,omitempty"`
	// @ at starts this line.
	// +optional
	E string `json:"e,omitempty"`
	// `backtick` starts this line.
	// +optional
	F string `json:"f,omitempty"`
	// | pipe starts this line.
	// +optional
	G string `json:"g,omitempty"`
	// > greater-than starts this line.
	// +optional
	H string `json:"h,omitempty"`
	// [bracket] starts this line.
	// +optional
	I string `json:"i,omitempty"`
	// {brace} starts this line.
	// +optional
	J string `json:"j,omitempty"`
	// 'single' quote starts this line.
	// +optional
	K string `json:"k,omitempty"`
	// "double" quote starts this line.
	// +optional
	L string `json:"l,omitempty"`
	// ? question starts this line.
	// +optional
	M string `json:"m,omitempty"`
	// this line ends with a colon:
	// +optional
	N string `json:"n,omitempty"`
	// café and ✓ are not ASCII.
	// +optional
	O string `json:"o,omitempty"`
	// a line with a # inside it.
	// +optional
	P string `json:"p,omitempty"`
	// true
	// +optional
	Q string `json:"q,omitempty"`
	// 123
	// +optional
	R string `json:"r,omitempty"`
	// null
	// +optional
	S string `json:"s,omitempty"`
	// both has +optional and +kubebuilder:validation:Required; the validation marker wins.
	// +optional
	// +kubebuilder:validation:Required
	Both string `json:"both,omitempty"`
	// other has +required and +kubebuilder:validation:Optional; the validation marker wins.
	// +required
	// +kubebuilder:validation:Optional
	Other string `json:"other"`
}

// +kubebuilder:object:root=true

// Text is a test kind.
type Text struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec TextSpec `json:"spec,omitempty"`
}
