/**
 * Resource paths: the one place that turns a Kind plus namespace/name/subresource into a URL path.
 * Core kinds live under `/api/v1`, every other group under `/apis/<group>/<version>`; namespaced
 * kinds add `/namespaces/<ns>`. The same rule serves built-in kinds and any CRD.
 */
import type { Kind } from "../api/kind.js";

export interface PathParts {
  namespace?: string;
  name?: string;
  subresource?: string;
}

export function groupVersionPath(kind: Kind): string {
  return kind.group === "" ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`;
}

/**
 * The path of a collection (no name) or of one object (with name), optionally a subresource of it.
 * A namespaced kind without a namespace gives the all-namespaces collection (list and watch only).
 */
export function resourcePath(kind: Kind, parts: PathParts = {}): string {
  const { namespace, name, subresource } = parts;
  if (!kind.namespaced && namespace) {
    throw new Error(
      `${kind.kind} is cluster-scoped, but namespace "${namespace}" was given; leave the namespace empty`,
    );
  }
  if (kind.namespaced && name !== undefined && !namespace) {
    throw new Error(
      `${kind.kind} is namespaced: set metadata.namespace (or the key's namespace) for "${name}"`,
    );
  }
  if (subresource && name === undefined) {
    throw new Error(`subresource "${subresource}" of ${kind.kind} needs an object name`);
  }
  let path = groupVersionPath(kind);
  if (kind.namespaced && namespace) path += `/namespaces/${segment(namespace, "namespace")}`;
  path += `/${kind.plural}`;
  if (name !== undefined) path += `/${segment(name, "name")}`;
  if (subresource) path += `/${segment(subresource, "subresource")}`;
  return path;
}

function segment(value: string, what: string): string {
  if (value === "" || value === "." || value === ".." || value.includes("/") || value.includes("%")) {
    throw new Error(`invalid ${what} "${value}": it must be a non-empty name without "/" or "%"`);
  }
  return encodeURIComponent(value);
}

/** Query string from defined values only (booleans and numbers as text); "" when empty. */
export function queryString(params: Record<string, string | number | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== "") q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}
