import type { EnvVar, ObjectMeta, ResourceRequirements, Toleration } from "@kbts/runtime";

export interface WorkerSpec {
  // resources for the worker container.
  // +optional
  resources?: ResourceRequirements;
  // env for the worker container.
  // +optional
  env?: EnvVar[];
  // tolerations for the worker pod.
  // +optional
  tolerations?: Toleration[];
}

// +kubebuilder:object:root=true
// Worker is a test kind.
export interface Worker {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: WorkerSpec;
}
