import type { ObjectMeta } from "@kbts/runtime";

// Policy is an enum of its values, sorted (+k8s:enum).
// +k8s:enum
export type Policy = "Replace" | "Allow" | "Forbid";

/** The value +default=ref(...) names (Kubernetes' declarative defaults; controller-gen writes no default for it). */
export const DefaultMode = "fast";

export interface Knobs {
  // +kubebuilder:default=forty-two
  // +optional
  answer?: string;
  // +optional
  other?: string;
}

export interface ScheduleSpec {
  // +optional
  policy?: Policy;
  // mode defaults through a reference.
  // +default=ref(DefaultMode)
  // +optional
  mode?: string;
  // +default=[]
  emptyList: string[];
  // +default={}
  emptyMap: Record<string, string>;
  // +default={}
  emptyObject: Knobs;
  // +default=["a","b"]
  pair: string[];
  // kubebuilder:default wins over default.
  // +kubebuilder:default="kubebuilder-default"
  // +default="kubernetes-default"
  both: string;
}

// +kubebuilder:object:root=true
// Schedule is a test kind.
export interface Schedule {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ScheduleSpec;
}
