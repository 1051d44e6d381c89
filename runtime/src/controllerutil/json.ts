import { isDeepStrictEqual } from "node:util";

/** Equality of two values as JSON sees them (undefined members and key order do not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(normalize(a), normalize(b));
}

/** A deep copy as JSON (what travels to the API server). */
export function jsonClone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function normalize(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The RFC 7386 JSON merge patch that turns `before` into `after` (lists are replaced whole). */
export function mergePatchDiff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(before)) {
    if (before[key] !== undefined && after[key] === undefined) patch[key] = null;
  }
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = before[key];
    if (isPlainObject(old) && isPlainObject(value)) {
      const sub = mergePatchDiff(old, value);
      if (Object.keys(sub).length > 0) patch[key] = sub;
    } else if (!jsonEqual(old, value)) {
      patch[key] = jsonClone(value);
    }
  }
  return patch;
}
