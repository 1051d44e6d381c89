import type { ObjectMeta } from "@kbts/runtime";
import type { Corner } from "./index.js";

export interface FrameSpec {
  // corners uses the Array<T> spelling.
  // +optional
  corners?: Array<Corner>;
  // names uses ReadonlyArray<T>.
  // +optional
  readonly names?: ReadonlyArray<string>;
  // origin is declared in another file and re-exported.
  origin: Corner;
  // later is declared further down this file.
  // +optional
  later?: Later;
}

// Later is declared after its first use.
export interface Later {
  // +optional
  value?: string;
}

// +kubebuilder:object:root=true
// Frame is a test kind.
export interface Frame {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: FrameSpec;
}
