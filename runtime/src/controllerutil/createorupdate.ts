import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { getIfExists } from "../client/get-if-exists.js";
import { mergeFrom } from "../client/patch.js";
import type { Client } from "../client/types.js";
import { writeBack } from "../client/writeback.js";
import { jsonClone, jsonEqual } from "../internal/json.js";

/** What createOrUpdate / createOrPatch did (controller-runtime's OperationResult values). */
export type OperationResult = "unchanged" | "created" | "updated" | "updatedStatus" | "updatedStatusOnly";

/** Sets the desired state on the object it is given (the live one, or the new one on create). */
export type MutateFn<T> = (obj: T) => void | Promise<void>;

/**
 * Reads the object named by obj's namespace/name into `obj`, applies `mutate`, then creates it
 * (not found), updates it (mutate changed something) or leaves it alone. `obj` ends up holding what
 * the API server returned. Status changes are not written (update ignores status), as in controller-runtime.
 */
export async function createOrUpdate<T extends KubernetesObject>(
  client: Client,
  kind: Kind<T>,
  obj: T,
  mutate: MutateFn<T>,
): Promise<"unchanged" | "created" | "updated"> {
  const key = keyOf(obj);
  const live = await getIfExists(client, kind, key);
  if (!live) {
    await mutateChecked(mutate, obj, key);
    writeBack(obj, await client.create(kind, obj));
    return "created";
  }
  writeBack(obj, live);
  const existing = jsonClone(obj);
  await mutateChecked(mutate, obj, key);
  if (jsonEqual(existing, obj)) return "unchanged";
  writeBack(obj, await client.update(kind, obj));
  return "updated";
}

/**
 * Like createOrUpdate, but writes with JSON merge patches: one for everything but status
 * ("updated"), then one on the status subresource if status changed ("updatedStatus" for both,
 * "updatedStatusOnly" for status alone). Status is not written on create.
 */
export async function createOrPatch<T extends KubernetesObject>(
  client: Client,
  kind: Kind<T>,
  obj: T,
  mutate: MutateFn<T>,
): Promise<OperationResult> {
  const key = keyOf(obj);
  const live = await getIfExists(client, kind, key);
  if (!live) {
    await mutateChecked(mutate, obj, key);
    writeBack(obj, await client.create(kind, obj));
    return "created";
  }
  writeBack(obj, live);
  const before = jsonClone(obj) as Record<string, unknown>;
  await mutateChecked(mutate, obj, key);
  const after = jsonClone(obj) as Record<string, unknown>;
  const { status: beforeStatus, ...beforeRest } = before;
  const { status: afterStatus, ...afterRest } = after;

  let result: OperationResult = "unchanged";
  if (!jsonEqual(beforeRest, afterRest)) {
    const patched = await client.patch(kind, obj, mergeFrom<KubernetesObject>(beforeRest, afterRest));
    writeBack(obj, patched);
    // Keep the caller's desired status for the status write below.
    if (afterStatus === undefined) delete (obj as Record<string, unknown>).status;
    else (obj as Record<string, unknown>).status = jsonClone(afterStatus);
    result = "updated";
  }
  if (!jsonEqual(beforeStatus, afterStatus)) {
    const statusPatch = mergeFrom<KubernetesObject & { status?: unknown }>(
      { status: beforeStatus },
      { status: afterStatus ?? null },
    );
    writeBack(obj, await client.status().patch(kind, obj, statusPatch));
    result = result === "updated" ? "updatedStatus" : "updatedStatusOnly";
  }
  return result;
}

interface Key {
  namespace?: string;
  name: string;
}

function keyOf(obj: KubernetesObject): Key {
  const name = obj.metadata?.name;
  if (!name) throw new Error("createOrUpdate/createOrPatch need metadata.name set on the object");
  const namespace = obj.metadata?.namespace;
  return namespace ? { namespace, name } : { name };
}

async function mutateChecked<T extends KubernetesObject>(
  mutate: MutateFn<T>,
  obj: T,
  key: Key,
): Promise<void> {
  await mutate(obj);
  const after = keyOf(obj);
  if (after.name !== key.name || (after.namespace ?? "") !== (key.namespace ?? "")) {
    throw new Error("MutateFn cannot mutate object name and/or object namespace");
  }
}
