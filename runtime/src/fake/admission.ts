import type { JSONSchemaProps } from "../api/core.js";
import type { KubernetesObject, ObjectMeta } from "../api/meta.js";
import { celErrors } from "../validation/cel.js";
import { blocksCel, CEL_NOT_CHECKED, type FieldError, invalidError } from "../validation/fielderrors.js";
import { applyDefaults, prune } from "../validation/schema.js";
import { labelErrors, nameErrors } from "./metadata.js";
import type { TypeInfo } from "./store.js";

/**
 * Pruning, defaulting, then OpenAPI + CEL validation of a custom resource; metadata.name and label
 * checks for all. Pruned fields become warnings, as the API server sends them.
 */
export function admit(
  t: TypeInfo,
  obj: KubernetesObject,
  old: KubernetesObject | undefined,
  warnings: string[],
  subresource?: "status",
): void {
  const errors: FieldError[] = [];
  const name = obj.metadata?.name ?? "";
  if (!old) errors.push(...nameErrors(name));
  errors.push(...labelErrors(obj.metadata?.labels));
  const schema = t.crd?.schema;
  if (schema && t.crd?.validator) {
    for (const path of prune(obj, schema)) warnings.push(`unknown field "${path}"`);
    applyDefaults(obj, schema);
    const statusOnly = subresource === "status" && t.crd.statusValidator !== undefined;
    const record = obj as Record<string, unknown>;
    const schemaErrors = statusOnly
      ? record.status === undefined
        ? []
        : (t.crd.statusValidator?.errors(record.status) ?? [])
      : t.crd.validator.errors(obj);
    errors.push(...schemaErrors);
    // Type, enum, required, length and count errors keep CEL from running, as in apiextensions.
    if (t.crd.hasRules) errors.push(...ruleErrors(schema, schemaErrors, record, old, statusOnly));
  }
  if (errors.length > 0) throw invalidError(t.kind, name, errors);
}

/**
 * CEL rules, unless the schema found errors of the kinds that keep apiextensions from running
 * them (then one error says so). Status writes check the rules under .status only.
 */
function ruleErrors(
  schema: JSONSchemaProps,
  schemaErrors: FieldError[],
  obj: Record<string, unknown>,
  old: KubernetesObject | undefined,
  statusOnly: boolean,
): FieldError[] {
  if (blocksCel(schemaErrors)) return [CEL_NOT_CHECKED];
  const statusSchema = schema.properties?.status;
  if (statusOnly && statusSchema) {
    return celErrors(
      obj.status,
      (old as Record<string, unknown> | undefined)?.status,
      statusSchema,
      "status",
    );
  }
  return celErrors(celRoot(obj), old ? celRoot(old) : undefined, schema);
}

/** What root-level CEL rules see: the object with only metadata.name and metadata.generateName. */
function celRoot(obj: KubernetesObject): Record<string, unknown> {
  const { metadata, ...rest } = obj as Record<string, unknown> & { metadata?: ObjectMeta };
  const meta: Record<string, string> = {};
  if (metadata?.name) meta.name = metadata.name;
  if (metadata?.generateName) meta.generateName = metadata.generateName;
  return { ...rest, metadata: meta };
}
