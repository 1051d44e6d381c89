package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type OrderSpec struct {
	Item10 string `json:"item10"`
	Item2  string `json:"item2"`
	Item1  string `json:"item1"`
	Zeta   string `json:"Zeta"`
	Alpha  string `json:"alpha"`
	Under  string `json:"_under"`
	XDash  string `json:"x-dash"`
	AB     string `json:"aB"`
	Ab     string `json:"ab"`
	A1b    string `json:"a1b"`
	A01b   string `json:"a01b"`
	ADotB  string `json:"a.b"`
}

// +kubebuilder:object:root=true

// Order is a test kind.
type Order struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec OrderSpec `json:"spec,omitempty"`
}
