import type { int32, ObjectMeta } from "@kbts/runtime";

export interface HullSpec {
  // +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get

  // Three groups up from a field, inside the type: no field claims it, and it is not package-level.

  // length has no question mark, but the package is optional (see below).
  length: int32;
  // name is required explicitly.
  // +required
  name: string;
}

// The marker block above Hull, apart from its doc comment, holds a package-level marker: controller-gen
// reads it for the whole package, so every field of v1 is optional unless marked required.
// +kubebuilder:validation:Optional

// Hull is a test kind.
// +kubebuilder:object:root=true
export interface Hull {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: HullSpec;
}
