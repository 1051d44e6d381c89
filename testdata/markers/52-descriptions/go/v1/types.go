package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// NotesSpec covers the description rules.
//
// It has a second paragraph after a blank line.
// TODO: this line is dropped.
// The line after a TODO survives.
// ---
// Everything after the rule is cut.
type NotesSpec struct {
	// single is one short line.
	Single string `json:"single"`
	// long is a single line that is definitely longer than eighty characters, so the YAML writer folds it at a space.
	// +optional
	Long string `json:"long,omitempty"`
	// multi spans
	// several lines.
	//
	// With a second paragraph.
	// +optional
	Multi string `json:"multi,omitempty"`
	// quoted: has a colon and a space, so it must be quoted.
	// +optional
	Quoted string `json:"quoted,omitempty"`
	// +optional
	Undocumented string `json:"undocumented,omitempty"`
	// jsdoc is described by a one-line block comment.
	// +optional
	Jsdoc string `json:"jsdoc,omitempty"`
	// block spans two lines
	// in a JSDoc comment.
	// +optional
	Block string `json:"block,omitempty"`
	// fenced keeps its code block:
	// ```
	// ---
	// TODO kept inside the fence
	// ```
	// and a TODO after the fence is still dropped:
	// TODO dropped
	// +optional
	Fenced string `json:"fenced,omitempty"`
	// indented keeps an indented TODO:
	//   TODO indented lines survive
	// +optional
	Indented string `json:"indented,omitempty"`
	// trailing markers are not part of the text.
	// +kubebuilder:validation:MaxLength=10
	// +optional
	Trailing string `json:"trailing,omitempty"`
}

// +kubebuilder:object:root=true

// Notes is a test kind.
type Notes struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec NotesSpec `json:"spec,omitempty"`
}
