import type { CustomResourceDefinition } from "../crd/types.js";
import type { KbtsError } from "../errors.js";
import type { LoadedProject } from "../loading/program.js";
import type { MarkerCollector } from "../markers/collect.js";
import type { MarkerWarning } from "../markers/parse.js";
import type { MarkerDefinition, MarkerInstance } from "../markers/registry.js";
import type { JsonValue } from "../yaml/emit.js";
import type { MarkersAtNode } from "./checks.js";

/**
 * One generator of `kbts manifests`, as controller-tools' genall has them (RegisterMarkers, Generate):
 * the markers it understands, which the registry is composed of, and a step that reads the loaded
 * project and adds its files and objects to the run's output. generate.ts runs them in order.
 */
export interface Generator {
  readonly name: string;
  readonly markers: readonly MarkerDefinition[];
  generate(ctx: GenerationContext): void;
}

/** The options generators read (ManifestOptions, generate.ts, adds the orchestrator's own). */
export interface GeneratorOptions {
  /** Where CRDs go (default config/crd/bases). */
  crdOutput?: string;
  /** Name of the ClusterRole/Roles (default manager-role). */
  roleName?: string;
  /** Allow float fields (number/float64), as controller-gen's crd:allowDangerousTypes. */
  allowDangerousTypes?: boolean;
  /**
   * Skip kbts' own checks of the built CRDs (printer columns, CEL, list-map keys, defaults), so a test
   * can hand the API server exactly what the markers say and compare verdicts (testdata/broken-crds).
   */
  unchecked?: boolean;
  /** Sees every declaration's markers beside the schema node they made (the breaking-change gate's sources). */
  visitMarkers?: (node: MarkersAtNode) => void;
}

/** What the generators made: the rendered files, and the objects in them, so no reader parses the text. */
export interface ManifestObjects {
  /** Generated files: path relative to root → content. */
  files: Map<string, string>;
  /** The CRD files among them: path → the CRD it holds (keys in the file's order). */
  crds: Map<string, CustomResourceDefinition>;
  /** The objects of config/rbac/role.yaml (Roles and ClusterRole), in file order. */
  roles: JsonValue[];
  /** The objects of config/webhook/manifests.yaml, in file order. */
  webhooks: JsonValue[];
}

/** One run as the generators see it; each one adds to `output`, `errors` and `warnings`. */
export interface GenerationContext {
  root: string;
  options: GeneratorOptions;
  loaded: LoadedProject;
  collector: MarkerCollector;
  /** The package-level markers of the scanned files (read once, by the first generator that asks). */
  packageMarkers(): MarkerInstance[];
  /** Every CRD the types make, before the name-clash check drops one (write guards look kinds up here). */
  kinds: CustomResourceDefinition[];
  /** Every file the run read (the input-hash cache's inputs): generators that read more add it here. */
  read: Map<string, string>;
  output: ManifestObjects;
  /** Problems: nothing is written while one remains. */
  errors: KbtsError[];
  warnings: MarkerWarning[];
}
