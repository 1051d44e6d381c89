import type { ObjectMeta } from "@kbts/runtime";

export interface TextSpec {
  // # hash starts this line.
  // +optional
  a?: string;
  // & ampersand starts this line.
  // +optional
  b?: string;
  // ! bang starts this line.
  // +optional
  c?: string;
  // % percent starts this line.
  // +optional
  d?: string;
  // @ at starts this line.
  // +optional
  e?: string;
  // `backtick` starts this line.
  // +optional
  f?: string;
  // | pipe starts this line.
  // +optional
  g?: string;
  // > greater-than starts this line.
  // +optional
  h?: string;
  // [bracket] starts this line.
  // +optional
  i?: string;
  // {brace} starts this line.
  // +optional
  j?: string;
  // 'single' quote starts this line.
  // +optional
  k?: string;
  // "double" quote starts this line.
  // +optional
  l?: string;
  // ? question starts this line.
  // +optional
  m?: string;
  // this line ends with a colon:
  // +optional
  n?: string;
  // café and ✓ are not ASCII.
  // +optional
  o?: string;
  // a line with a # inside it.
  // +optional
  p?: string;
  // true
  // +optional
  q?: string;
  // 123
  // +optional
  r?: string;
  // null
  // +optional
  s?: string;
  // both has +optional and +kubebuilder:validation:Required; the validation marker wins.
  // +optional
  // +kubebuilder:validation:Required
  both?: string;
  // other has +required and +kubebuilder:validation:Optional; the validation marker wins.
  // +required
  // +kubebuilder:validation:Optional
  other: string;
}

// +kubebuilder:object:root=true
// Text is a test kind.
export interface Text {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: TextSpec;
}
