import { rbacMarker } from "../rbac/markers.js";
import { webhookConfigurationMarker, webhookMarker } from "../webhook/markers.js";
import { crdMarkers, packageMarkers } from "./defs/crd.js";
import { fieldOnlyMarkers, topologyMarkers, typeOnlyMarkers, validationMarkers } from "./defs/validation.js";
import { Registry } from "./registry.js";

/** Every marker kbts understands: one registration line per group of definitions. */
export const registry = new Registry()
  .add(...validationMarkers)
  .add(...fieldOnlyMarkers)
  .add(...typeOnlyMarkers)
  .add(...topologyMarkers)
  .add(...crdMarkers)
  .add(...packageMarkers)
  .add(rbacMarker, webhookMarker, webhookConfigurationMarker)
  // Markers of other generators (deepcopy, applyconfigurations, kubebuilder's scaffolder).
  .ignore(
    "kubebuilder:object:generate",
    "kubebuilder:scaffold",
    "kubebuilder:ac:generate",
    "kubebuilder:ac:output:package",
    "k8s:deepcopy-gen",
    "k8s:openapi-gen",
    "genclient",
    "kubebuilder:docs-gen",
  );
