import { crdGeneratorMarkers } from "./crd/markers/index.js";
import { loadingMarkers } from "./loading/markers.js";
import { breakingMarkers } from "./markers/defs/breaking.js";
import { Registry } from "./markers/registry.js";
import { rbacGeneratorMarkers } from "./rbac/markers.js";
import { webhookGeneratorMarkers } from "./webhook/markers.js";

/**
 * Every marker kbts understands, composed from the markers each generator registers (as
 * controller-tools' genall does): package loading, CRD, RBAC and webhook, and kbts' breaking-change gate.
 */
export const registry = new Registry()
  .add(...loadingMarkers)
  .add(...crdGeneratorMarkers)
  .add(...rbacGeneratorMarkers)
  .add(...webhookGeneratorMarkers)
  .add(...breakingMarkers)
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
    // gengo's enum tag on k8s.io/api types (openapi-gen reads it; controller-gen does not).
    "enum",
  );
