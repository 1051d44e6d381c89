package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type QuoteSpec struct {
	// answer takes values YAML 1.1 would read as booleans or null.
	// +kubebuilder:validation:Enum=yes;no;on;off;y;n;"null";"~";"true";"False"
	// +optional
	Answer string `json:"answer,omitempty"`
	// number takes values YAML would read as numbers.
	// +kubebuilder:validation:Enum="1e3";"0x1F";"1_000";".5";".inf";"-1";"012";"+7"
	// +optional
	Number string `json:"number,omitempty"`
	// symbol takes values that cannot be plain scalars.
	// +kubebuilder:validation:Enum="-";"*";"&a";"!tag";"%x";"@at";"a: b";"a #b";"[x]";"{y}";"'q'";"`b`";"x|y";">z";"?"
	// +optional
	Symbol string `json:"symbol,omitempty"`
	// - dash starts this description, which YAML must quote.
	// +optional
	Dash string `json:"dash,omitempty"`
	// *star* starts this one.
	// +optional
	Star string `json:"star,omitempty"`
	// "quoted" words start this one, and it's got an apostrophe.
	// +optional
	Quote string `json:"quote,omitempty"`
	// percent: 100% of this has a colon, a # hash and {braces}.
	// +optional
	Percent string `json:"percent,omitempty"`
	// +kubebuilder:default="yes"
	// +optional
	Defaulted string `json:"defaulted,omitempty"`
	// +kubebuilder:example="0755"
	// +optional
	Mode string `json:"mode,omitempty"`
	// long: this description is longer than eighty characters and contains a colon so it is single-quoted and folded.
	// +optional
	Folded string `json:"folded,omitempty"`
	// averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongwordthatcannotbreak and then more words after it to wrap.
	// +optional
	Longword string `json:"longword,omitempty"`
}

// +kubebuilder:object:root=true

// Quote is a test kind.
type Quote struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec QuoteSpec `json:"spec,omitempty"`
}
