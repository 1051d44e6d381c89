package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Rules the API server accepts: property names as Kubernetes escapes them for CEL (a keyword as
// __keyword__, "__" as __underscores__, "." as __dot__, "-" as __dash__, "/" as __slash__), CEL's
// optional syntax, and oldSelf as an optional with optionalOldSelf.
// +kubebuilder:validation:XValidation:rule="self.__namespace__ != ''",message="namespace is set"
// +kubebuilder:validation:XValidation:rule="self.__if__ != 'never'",message="if is not never"
// +kubebuilder:validation:XValidation:rule="self.x__dash__y.size() <= 10",message="x-y is short"
// +kubebuilder:validation:XValidation:rule="self.a__dot__b != 'c'",message="a.b is not c"
// +kubebuilder:validation:XValidation:rule="self.a__slash__b != 'c'",message="a/b is not c"
// +kubebuilder:validation:XValidation:rule="self.a__underscores__b != 'c'",message="a__b is not c"
// +kubebuilder:validation:XValidation:rule="self.?label.orValue('') != 'forbidden'",message="label is not forbidden"
// +kubebuilder:validation:XValidation:rule="optional.of(self.x__dash__y).hasValue()",message="x-y is there"
// +kubebuilder:validation:XValidation:rule="self.?count.orValue(0) >= 0 && (!self.?label.hasValue() || self.?label.value() != '')",message="count and label"
// +kubebuilder:validation:XValidation:rule="!oldSelf.hasValue() || oldSelf.value().__namespace__ == self.__namespace__",message="namespace is immutable",optionalOldSelf=true
type GateSpec struct {
	Namespace string `json:"namespace"`
	If        string `json:"if"`
	XY        string `json:"x-y"`
	ADotB     string `json:"a.b"`
	ASlashB   string `json:"a/b"`
	AUnderB   string `json:"a__b"`
	// +kubebuilder:validation:MaxLength=63
	// +optional
	Label string `json:"label,omitempty"`
	// +optional
	Count int32 `json:"count,omitempty"`
}

// +kubebuilder:object:root=true

// Gate is a test kind.
type Gate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec GateSpec `json:"spec,omitempty"`
}
