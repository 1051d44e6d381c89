import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Knobs {
  // +kubebuilder:default=3
  // +optional
  retries?: int32;
  // +optional
  mode?: string;
}

export interface PanelSpec {
  // knobs defaults to an empty object so nested defaults apply.
  // +kubebuilder:default={}
  // +optional
  knobs?: Knobs;
  // preset defaults to an object with values.
  // +kubebuilder:default={retries: 5, mode: fast}
  // +optional
  preset?: Knobs;
  // zones defaults to a list.
  // +kubebuilder:default={a,b,c}
  // +optional
  zones?: string[];
  // empty defaults to an empty list.
  // +kubebuilder:default={}
  // +optional
  empty?: string[];
  // labels defaults to a map.
  // +kubebuilder:default={app: demo, tier: web}
  // +optional
  labels?: Record<string, string>;
  // steps defaults to a list of objects, in JSON.
  // +default=[{"retries":1},{"retries":2,"mode":"slow"}]
  // +optional
  steps?: Knobs[];
}

// +kubebuilder:object:root=true
// Panel is a test kind.
export interface Panel {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: PanelSpec;
}
