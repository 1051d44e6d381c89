import type {
  CustomResourceDefinition,
  CustomResourceDefinitionVersion,
  JSONSchemaProps,
} from "../api/core.js";
import { defineKind, type Kind } from "../api/kind.js";
import { manifestFiles, readDocuments } from "../internal/manifests.js";
import { compileRules, hasRules } from "../validation/cel.js";
import { type SchemaValidator, validatorFor } from "../validation/schema.js";

type CRDSpec = NonNullable<CustomResourceDefinition["spec"]>;

/**
 * A CustomResourceDefinition as the fake takes it: the runtime's type, loosened where the API server
 * would default (scope, served, storage) so a test may write only what matters.
 */
export interface CRDLike {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
  spec: Omit<CRDSpec, "scope" | "versions"> & {
    scope?: CRDSpec["scope"];
    versions: (Omit<CustomResourceDefinitionVersion, "served" | "storage"> &
      Partial<Pick<CustomResourceDefinitionVersion, "served" | "storage">>)[];
  };
}

export interface CRDVersion {
  kind: Kind;
  schema?: JSONSchemaProps;
  validator?: SchemaValidator;
  /** Validates .status alone, for writes to the status subresource. */
  statusValidator?: SchemaValidator;
  statusSubresource: boolean;
  /** Any CEL rules in the schema. */
  hasRules: boolean;
}

/** One custom resource type: its versions, keyed by version name. */
export interface CRDType {
  name: string;
  group: string;
  kind: string;
  versions: Map<string, CRDVersion>;
  /** The version objects are stored in (`storage: true`, else the first). */
  storageVersion: string;
  /** spec.conversion.strategy: "None" unless the CRD asks for "Webhook". */
  conversionStrategy: string;
  where: string;
}

/** Reads CRDs from files or directories (non-recursive; .yaml/.yml/.json; multi-document); other kinds are skipped. */
export function readCRDFiles(paths: string[]): { crd: CRDLike; where: string }[] {
  const files = manifestFiles(
    paths,
    (p) =>
      new Error(
        `fake client: CRD path ${p} does not exist (crdDirectoryPaths); generate the CRDs first (kbts manifests)`,
      ),
  );
  return files
    .flatMap((file) => readDocuments(file))
    .filter(({ doc }) => doc.kind === "CustomResourceDefinition")
    .map(({ doc, where }) => ({ crd: doc as unknown as CRDLike, where }));
}

/** Checks a CRD and compiles its schemas and CEL rules; errors name the CRD and where it came from. */
export function loadCRD(crd: CRDLike, where: string): CRDType {
  const spec = crd.spec;
  if (!spec?.group || !spec.names?.kind || !spec.names.plural || !Array.isArray(spec.versions)) {
    throw new Error(
      `fake client: ${where} is not a valid CustomResourceDefinition (needs spec.group, spec.names.kind/plural, spec.versions)`,
    );
  }
  const type: CRDType = {
    name: crd.metadata?.name ?? `${spec.names.plural}.${spec.group}`,
    group: spec.group,
    kind: spec.names.kind,
    versions: new Map(),
    storageVersion: (spec.versions.find((v) => v.storage) ?? spec.versions[0])?.name ?? "",
    conversionStrategy: String((spec.conversion as { strategy?: string } | undefined)?.strategy ?? "None"),
    where,
  };
  for (const v of spec.versions) {
    if (v.served === false) continue;
    const schema = v.schema?.openAPIV3Schema;
    const version: CRDVersion = {
      kind: defineKind({
        group: spec.group,
        version: v.name,
        kind: spec.names.kind,
        plural: spec.names.plural,
        namespaced: (spec.scope ?? "Namespaced") === "Namespaced",
      }),
      statusSubresource: v.subresources?.status !== undefined,
      hasRules: schema ? hasRules(schema) : false,
    };
    if (schema) {
      try {
        version.schema = schema;
        version.validator = validatorFor(schema);
        const statusSchema = schema.properties?.status;
        if (statusSchema) version.statusValidator = validatorFor(statusSchema, "status");
        compileRules(schema, `${type.name} ${v.name}`);
      } catch (err) {
        throw new Error(`fake client: ${where}: version ${v.name}: ${(err as Error).message}`);
      }
    }
    type.versions.set(v.name, version);
  }
  return type;
}
