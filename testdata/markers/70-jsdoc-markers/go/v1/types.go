package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// LockerSpec is documented and marked in JSDoc.
// +kubebuilder:validation:MinProperties=1
type LockerSpec struct {
	// code opens the locker.
	// +kubebuilder:validation:Pattern=`^[0-9]{4}$`
	// +optional
	Code string `json:"code,omitempty"`
	// slots counts the shelves.
	// +kubebuilder:validation:Maximum=12
	// +optional
	Slots int32 `json:"slots,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=lk

// Locker is a test kind whose markers live in a JSDoc block.
type Locker struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// spec is optional.
	// +optional
	Spec LockerSpec `json:"spec,omitempty"`
}
