/** The fake API server's patch documents, applied: RFC 7386 JSON merge patch and RFC 6902 JSON patch. */
import type { JsonPatchOperation } from "../client/types.js";
import { jsonClone, jsonEqual } from "../internal/json.js";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** RFC 7386: objects merge member by member, null deletes, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return jsonClone(patch);
  const out: Json = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

class PatchError extends Error {}

function parsePointer(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new PatchError(`invalid JSON pointer ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function parentOf(doc: unknown, tokens: string[], path: string): { parent: unknown; key: string } {
  let cur = doc;
  for (const t of tokens.slice(0, -1)) {
    cur = Array.isArray(cur) ? cur[Number(t)] : isObject(cur) ? cur[t] : undefined;
    if (cur === undefined) throw new PatchError(`path ${path} does not exist`);
  }
  return { parent: cur, key: tokens[tokens.length - 1] as string };
}

function get(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const t of parsePointer(path)) {
    cur = Array.isArray(cur) ? cur[Number(t)] : isObject(cur) ? cur[t] : undefined;
    if (cur === undefined) throw new PatchError(`path ${path} does not exist`);
  }
  return cur;
}

function add(doc: unknown, path: string, value: unknown): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return jsonClone(value);
  const { parent, key } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const i = key === "-" ? parent.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > parent.length)
      throw new PatchError(`index ${key} out of range at ${path}`);
    parent.splice(i, 0, jsonClone(value));
  } else if (isObject(parent)) {
    parent[key] = jsonClone(value);
  } else {
    throw new PatchError(`path ${path} does not exist`);
  }
  return doc;
}

function remove(doc: unknown, path: string): unknown {
  const tokens = parsePointer(path);
  const { parent, key } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length)
      throw new PatchError(`index ${key} out of range at ${path}`);
    parent.splice(i, 1);
  } else if (isObject(parent) && key in parent) {
    delete parent[key];
  } else {
    throw new PatchError(`path ${path} does not exist`);
  }
  return doc;
}

/** RFC 6902 JSON Patch; throws (the caller maps it to the API server's error) on a bad op. */
export function applyJsonPatch(target: unknown, ops: JsonPatchOperation[]): unknown {
  let doc = jsonClone(target);
  for (const op of ops) {
    switch (op.op) {
      case "add":
        doc = add(doc, op.path, op.value);
        break;
      case "remove":
        doc = remove(doc, op.path);
        break;
      case "replace":
        get(doc, op.path);
        if (op.path === "") {
          doc = jsonClone(op.value);
          break;
        }
        doc = add(remove(doc, op.path), op.path, op.value);
        break;
      case "move": {
        const v = get(doc, op.from ?? "");
        doc = add(remove(doc, op.from ?? ""), op.path, v);
        break;
      }
      case "copy":
        doc = add(doc, op.path, get(doc, op.from ?? ""));
        break;
      case "test":
        if (!jsonEqual(get(doc, op.path), op.value))
          throw new PatchError(`test operation for path ${op.path} failed`);
        break;
      default:
        throw new PatchError(`unknown JSON patch operation ${JSON.stringify((op as { op: unknown }).op)}`);
    }
  }
  return doc;
}

export { PatchError };
