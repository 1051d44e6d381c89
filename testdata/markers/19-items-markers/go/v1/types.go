package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type ListsSpec struct {
	// ports are each between 1 and 65535.
	// +kubebuilder:validation:items:Minimum=1
	// +kubebuilder:validation:items:Maximum=65535
	// +kubebuilder:validation:items:ExclusiveMaximum=false
	// +kubebuilder:validation:items:MultipleOf=1
	// +optional
	Ports []int32 `json:"ports,omitempty"`
	// names are short lowercase words.
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=8
	// +kubebuilder:validation:items:Pattern=`^[a-z]+$`
	// +optional
	Names []string `json:"names,omitempty"`
	// sizes come from a fixed set.
	// +kubebuilder:validation:items:Enum=S;M;L
	// +optional
	Sizes []string `json:"sizes,omitempty"`
	// emails have a format and a rule.
	// +kubebuilder:validation:items:Format=email
	// +kubebuilder:validation:items:XValidation:rule="self.endsWith('.test')",message="must be a .test address"
	// +optional
	Emails []string `json:"emails,omitempty"`
	// groups are lists with bounded length.
	// +kubebuilder:validation:items:MinItems=1
	// +kubebuilder:validation:items:MaxItems=2
	// +kubebuilder:validation:items:UniqueItems=false
	// +optional
	Groups [][]string `json:"groups,omitempty"`
	// labels are non-empty maps.
	// +kubebuilder:validation:items:MinProperties=1
	// +kubebuilder:validation:items:MaxProperties=4
	// +optional
	Labels []map[string]string `json:"labels,omitempty"`
}

// +kubebuilder:object:root=true

// Lists is a test kind.
type Lists struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ListsSpec `json:"spec,omitempty"`
}
