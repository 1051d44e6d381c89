import type { JsonPatchOperation } from "../client/types.js";
import { jsonClone, jsonEqual } from "../internal/json.js";

/** RFC 6901 escaping of one path segment. */
function escapeSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The RFC 6902 JSON Patch that turns `from` into `to`: objects are diffed member by member, lists of
 * equal length element by element, and other lists replaced whole (always correct, rarely minimal).
 */
export function jsonPatchDiff(from: unknown, to: unknown, path = ""): JsonPatchOperation[] {
  if (jsonEqual(from, to)) return [];
  if (isObject(from) && isObject(to)) {
    const ops: JsonPatchOperation[] = [];
    for (const key of Object.keys(from)) {
      if (from[key] !== undefined && to[key] === undefined)
        ops.push({ op: "remove", path: `${path}/${escapeSegment(key)}` });
    }
    for (const [key, value] of Object.entries(to)) {
      if (value === undefined) continue;
      const p = `${path}/${escapeSegment(key)}`;
      if (from[key] === undefined) ops.push({ op: "add", path: p, value: jsonClone(value) });
      else ops.push(...jsonPatchDiff(from[key], value, p));
    }
    return ops;
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    return from.flatMap((item, i) => jsonPatchDiff(item, to[i], `${path}/${i}`));
  }
  return [{ op: "replace", path: path, value: jsonClone(to) }];
}
