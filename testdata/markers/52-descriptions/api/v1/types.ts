import type { ObjectMeta } from "@kbts/runtime";

// NotesSpec covers the description rules.
//
// It has a second paragraph after a blank line.
// TODO: this line is dropped.
// The line after a TODO survives.
// ---
// Everything after the rule is cut.
export interface NotesSpec {
  // single is one short line.
  single: string;
  // long is a single line that is definitely longer than eighty characters, so the YAML writer folds it at a space.
  // +optional
  long?: string;
  // multi spans
  // several lines.
  //
  // With a second paragraph.
  // +optional
  multi?: string;
  // quoted: has a colon and a space, so it must be quoted.
  // +optional
  quoted?: string;
  // +optional
  undocumented?: string;
  /** jsdoc is described by a one-line block comment. */
  // +optional
  jsdoc?: string;
  /**
   * block spans two lines
   * in a JSDoc comment.
   * +optional
   */
  block?: string;
  // fenced keeps its code block:
  // ```
  // ---
  // TODO kept inside the fence
  // ```
  // and a TODO after the fence is still dropped:
  // TODO dropped
  // +optional
  fenced?: string;
  // indented keeps an indented TODO:
  //   TODO indented lines survive
  // +optional
  indented?: string;
  // trailing markers are not part of the text.
  // +kubebuilder:validation:MaxLength=10
  // +optional
  trailing?: string;
}

// +kubebuilder:object:root=true
// Notes is a test kind.
export interface Notes {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: NotesSpec;
}
