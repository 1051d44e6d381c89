package v1

// Address is shared by several kinds.
type Address struct {
	// street is required.
	// +kubebuilder:validation:MinLength=1
	Street string `json:"street"`
	// +optional
	City string `json:"city,omitempty"`
}

// Country is a two-letter code.
// +kubebuilder:validation:Pattern=`^[A-Z]{2}$`
type Country string
