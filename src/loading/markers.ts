import { t } from "../markers/args.js";
import { defineMarker, type MarkerDefinition } from "../markers/registry.js";

/** Markers that say what an API package and its root kinds are (controller-tools' package-level markers). */

export const objectRoot = defineMarker<boolean>({
  name: "kubebuilder:object:root",
  targets: ["type"],
  args: { kind: "value", type: t.bool },
  help: "the type is a Kubernetes object (a root kind, or its List)",
});

/** Package-level only, as in controller-tools: on a type's doc comment it is ignored there too. */
export const skipType = defineMarker<undefined>({
  name: "kubebuilder:skip",
  targets: ["package"],
  args: { kind: "none" },
  help: "no CRD is generated for any kind of this package",
  packageEffect: "no CRD is generated for any kind of the package",
});

/** Package-level markers of API packages. */
export const groupName = defineMarker<string>({
  name: "groupName",
  targets: ["package"],
  args: { kind: "value", type: t.string, optional: true },
  help: "the API group of the package (+groupName=example.com)",
  convert: (a) => (a === undefined ? "" : String(a)),
});

export const versionName = defineMarker<string>({
  name: "versionName",
  targets: ["package"],
  args: { kind: "value", type: t.string },
  help: "overrides the version of the package (defaults to the directory name)",
});

export const packageOptional = defineMarker<undefined>({
  name: "kubebuilder:validation:Optional",
  targets: ["package"],
  args: { kind: "none" },
  help: "every field of the package is optional unless marked required",
  packageEffect: "every field of every type of the package is optional unless marked +required",
  packageDefault: "optional",
});

export const packageRequired = defineMarker<undefined>({
  name: "kubebuilder:validation:Required",
  targets: ["package"],
  args: { kind: "none" },
  help: "every field of the package is required unless marked optional (the default)",
  packageEffect: "every field of every type of the package is required unless marked +optional",
});

/** The markers package discovery reads: registered by whoever loads API packages. */
export const loadingMarkers: MarkerDefinition[] = [
  groupName,
  versionName,
  packageOptional,
  packageRequired,
  objectRoot,
  skipType,
];
