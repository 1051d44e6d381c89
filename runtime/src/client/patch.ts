/**
 * Patch builders. `mergeFrom` is controller-runtime's client.MergeFrom: an RFC 7386 JSON merge patch
 * from the original to the modified object (lists are replaced whole), optionally pinned to the
 * original's resourceVersion so a concurrent write makes the patch fail with a Conflict.
 */
import type { KubernetesObject } from "../api/meta.js";
import { jsonClone } from "../internal/json.js";
import type { JsonPatchOperation, Patch } from "./types.js";

export function mergePatch(data: Record<string, unknown>): Patch {
  return { type: "merge", data };
}

export function jsonPatch(ops: JsonPatchOperation[]): Patch {
  return { type: "json", data: ops };
}

/** Strategic merge patch: built-in kinds only (CRDs reject it, as the API server documents). */
export function strategicMergePatch(data: Record<string, unknown>): Patch {
  return { type: "strategic", data };
}

export interface MergeFromOptions {
  /** Include the original's metadata.resourceVersion, so the patch fails with ConflictError if stale. */
  optimisticLock?: boolean;
}

export function mergeFrom<T extends KubernetesObject>(
  original: T,
  modified: T,
  options: MergeFromOptions = {},
): Patch & { type: "merge" } {
  const data = createMergePatch(toJSON(original), toJSON(modified)) as Record<string, unknown>;
  if (options.optimisticLock) {
    const rv = original.metadata?.resourceVersion;
    if (!rv) {
      throw new Error(
        "mergeFrom with optimisticLock needs the original object's metadata.resourceVersion; read the object from the API first",
      );
    }
    const meta = (data.metadata ?? {}) as Record<string, unknown>;
    data.metadata = { ...meta, resourceVersion: rv };
  }
  return { type: "merge", data };
}

/** The patch content type the API server expects for each patch type. */
export function patchContentType(type: Patch["type"] | "apply"): string {
  switch (type) {
    case "merge":
      return "application/merge-patch+json";
    case "json":
      return "application/json-patch+json";
    case "strategic":
      return "application/strategic-merge-patch+json";
    case "apply":
      return "application/apply-patch+yaml";
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The value as the wire encoding sends it (undefined members and functions dropped). */
const toJSON = (v: unknown): Json => jsonClone(v ?? {}) as Json;

function isObject(v: Json | undefined): v is { [k: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** RFC 7386 diff: a patch that turns `from` into `to` (null deletes a member). */
export function createMergePatch(from: Json, to: Json): Json {
  if (!isObject(from) || !isObject(to)) return to;
  const patch: { [k: string]: Json } = {};
  for (const key of Object.keys(from)) {
    if (!(key in to)) patch[key] = null;
  }
  for (const [key, value] of Object.entries(to)) {
    const before = from[key];
    if (before === undefined) {
      patch[key] = value;
    } else if (isObject(before) && isObject(value)) {
      const sub = createMergePatch(before, value);
      if (isObject(sub) && Object.keys(sub).length > 0) patch[key] = sub;
    } else if (!deepEqual(before, value)) {
      patch[key] = value;
    }
  }
  return patch;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && deepEqual((a as Record<string, unknown>)[k], rb[k]));
}
