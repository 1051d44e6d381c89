import { crdMarkers } from "../markers/defs/crd.js";
import {
  fieldOnlyMarkers,
  topologyMarkers,
  typeOnlyMarkers,
  validationMarkers,
} from "../markers/defs/validation.js";
import type { MarkerDefinition } from "../markers/registry.js";

/** The markers the CRD generator reads (controller-tools' crd.Generator.RegisterMarkers). */
export const crdGeneratorMarkers: MarkerDefinition[] = [
  ...validationMarkers,
  ...fieldOnlyMarkers,
  ...typeOnlyMarkers,
  ...topologyMarkers,
  ...crdMarkers,
];
