import type { ObjectMeta } from "@kbts/runtime";

// StampSpec keeps lint and compiler directives out of its descriptions.
// eslint-disable-next-line @typescript-eslint/naming-convention
export interface StampSpec {
  // ink is the colour of the stamp.
  // @ts-expect-error the directive is not part of the description
  // +optional
  ink?: string;
  // prettier-ignore
  // size is how big the stamp is.
  // +optional
  size?: string;
  // eslint-disable-next-line no-warning-comments
  // shape keeps its text when a directive sits in the middle.
  // biome-ignore lint/suspicious/noEmptyInterface: directive text
  // It has a second line.
  // +optional
  shape?: string;
}

// +kubebuilder:object:root=true
// Stamp is a test kind.
export interface Stamp {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: StampSpec;
}
