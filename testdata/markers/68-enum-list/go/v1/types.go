package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Weekday is a day of the working week.
// +kubebuilder:validation:Enum=Mon;Tue;Wed;Thu;Fri
type Weekday string

// +kubebuilder:validation:Enum=early;late
type RotaSpecShift string

type RotaSpec struct {
	// days lists the working days, each from the Weekday union.
	// +listType=set
	// +optional
	Days []Weekday `json:"days,omitempty"`
	// shifts maps a day to a shift name.
	// +optional
	Shifts map[string]RotaSpecShift `json:"shifts,omitempty"`
}

// +kubebuilder:object:root=true

// Rota is a test kind.
type Rota struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec RotaSpec `json:"spec,omitempty"`
}
