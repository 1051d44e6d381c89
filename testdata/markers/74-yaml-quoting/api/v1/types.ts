import type { ObjectMeta } from "@kbts/runtime";

export interface QuoteSpec {
  // answer takes values YAML 1.1 would read as booleans or null.
  // +kubebuilder:validation:Enum=yes;no;on;off;y;n;"null";"~";"true";"False"
  // +optional
  answer?: string;
  // number takes values YAML would read as numbers.
  // +kubebuilder:validation:Enum="1e3";"0x1F";"1_000";".5";".inf";"-1";"012";"+7"
  // +optional
  number?: string;
  // symbol takes values that cannot be plain scalars.
  // +kubebuilder:validation:Enum="-";"*";"&a";"!tag";"%x";"@at";"a: b";"a #b";"[x]";"{y}";"'q'";"`b`";"x|y";">z";"?"
  // +optional
  symbol?: string;
  // - dash starts this description, which YAML must quote.
  // +optional
  dash?: string;
  // *star* starts this one.
  // +optional
  star?: string;
  // "quoted" words start this one, and it's got an apostrophe.
  // +optional
  quote?: string;
  // percent: 100% of this has a colon, a # hash and {braces}.
  // +optional
  percent?: string;
  // +kubebuilder:default="yes"
  // +optional
  defaulted?: string;
  // +kubebuilder:example="0755"
  // +optional
  mode?: string;
  // long: this description is longer than eighty characters and contains a colon so it is single-quoted and folded.
  // +optional
  folded?: string;
  // averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongwordthatcannotbreak and then more words after it to wrap.
  // +optional
  longword?: string;
}

// +kubebuilder:object:root=true
// Quote is a test kind.
export interface Quote {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: QuoteSpec;
}
