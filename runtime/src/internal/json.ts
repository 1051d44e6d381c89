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
