import type { MarkerDefinition } from "../../markers/registry.js";
import { crdMarkers } from "./crd.js";
import { fieldOnlyMarkers, topologyMarkers, typeOnlyMarkers, validationMarkers } from "./validation.js";

/** The markers the CRD generator reads (controller-tools' crd.Generator.RegisterMarkers). */
export const crdGeneratorMarkers: MarkerDefinition[] = [
  ...validationMarkers,
  ...fieldOnlyMarkers,
  ...typeOnlyMarkers,
  ...topologyMarkers,
  ...crdMarkers,
];
