import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { InvalidError } from "../client/errors.js";
import type { ObjectKey, Patch, WriteOptions } from "../client/types.js";
import { badRequest, status } from "./errors.js";
import { applyJsonPatch, applyMergePatch, PatchError } from "./jsonpatch.js";
import type { FakeStore } from "./store.js";
import { commit, keepStatus } from "./writes.js";

/** The stored object with a patch applied; a patch that does not apply is Invalid, as on the API server. */
export function patched(kind: Kind, existing: KubernetesObject, patch: Patch): KubernetesObject {
  try {
    switch (patch.type) {
      case "merge":
      case "strategic": // strategic merge is approximated by a JSON merge patch (lists are replaced)
        return applyMergePatch(existing, patch.data) as KubernetesObject;
      case "json":
        return applyJsonPatch(existing, patch.data) as KubernetesObject;
    }
  } catch (err) {
    if (err instanceof PatchError) {
      throw new InvalidError(
        status(422, "Invalid", `${kind.kind} "${existing.metadata?.name}": ${err.message}`),
        422,
      );
    }
    throw err;
  }
  throw badRequest(`unknown patch type ${(patch as { type: string }).type}`);
}

/** patch: merge, strategic (as merge) or JSON patch of the main resource; status is kept when it is a subresource. */
export function patch<T extends KubernetesObject>(
  store: FakeStore,
  kind: Kind<T>,
  obj: T | ObjectKey,
  p: Patch,
  opts: WriteOptions,
): T {
  const t = store.info(kind);
  const existing = store.existingOf(kind, obj);
  const next = keepStatus(t, existing, patched(kind, existing, p));
  return commit(store, kind, existing, next, { dryRun: opts.dryRun, requireRV: false });
}
