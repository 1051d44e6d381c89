import type { ObjectMeta } from "@kbts/runtime";

// Phase is where a job is in its life.
export type Phase = "Pending" | "Running" | "Done";

export interface JobSpec {
  // phase is a named literal union.
  // +optional
  phase?: Phase;
  // policy is an inline literal union.
  policy: "Always" | "Never";
}

// +kubebuilder:object:root=true
// Job is a test kind.
export interface Job {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: JobSpec;
}
