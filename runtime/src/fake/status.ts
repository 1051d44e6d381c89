import type { Kind } from "../api/kind.js";
import type { KubernetesObject, ObjectMeta } from "../api/meta.js";
import { missingSubresourceError } from "../client/errors.js";
import type { ObjectKey, Patch, SubResourceClient, WriteOptions } from "../client/types.js";
import { isObject, writeBack } from "../client/writeback.js";
import { jsonClone } from "../internal/json.js";
import { patched } from "./patch.js";
import { type FakeStore, out } from "./store.js";
import { commit } from "./writes.js";

/** A status write changes status only. */
function onlyStatus(existing: KubernetesObject, next: KubernetesObject): KubernetesObject {
  const result = jsonClone(existing) as Record<string, unknown>;
  const s = (next as Record<string, unknown>).status;
  if (s === undefined) delete result.status;
  else result.status = jsonClone(s);
  (result.metadata as ObjectMeta).resourceVersion = next.metadata?.resourceVersion;
  return result as KubernetesObject;
}

/**
 * The status subresource: reads the object, writes only its status (filling the object passed in),
 * and for kinds without one fails as the real client does, naming the marker to add.
 */
export function statusClient(store: FakeStore): SubResourceClient {
  const guard = (kind: Kind, name: string) => {
    if (store.info(kind).statusSubresource) return;
    throw missingSubresourceError(
      kind,
      name,
      "status",
      undefined,
      store.isBare(kind)
        ? `the fake client serves ${kind.kind} from createFakeClient({ kinds }) with no CRD: pass its CRD (crdDirectoryPaths: ["config/crd/bases"]) or { kind, statusSubresource: true }`
        : undefined,
    );
  };
  return {
    async get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
      return out<T>(kind, store.existingOf(kind, key));
    },
    async update<T extends KubernetesObject>(kind: Kind<T>, obj: T, opts: WriteOptions = {}): Promise<T> {
      const existing = store.existingOf(kind, obj);
      guard(kind, existing.metadata?.name ?? "");
      const answer = commit<T>(store, kind, existing, onlyStatus(existing, obj), {
        dryRun: opts.dryRun,
        requireRV: false,
        subresource: "status",
      });
      return writeBack(obj, answer);
    },
    async patch<T extends KubernetesObject>(
      kind: Kind<T>,
      obj: T | ObjectKey,
      patch: Patch,
      opts: WriteOptions = {},
    ): Promise<T> {
      const existing = store.existingOf(kind, obj);
      guard(kind, existing.metadata?.name ?? "");
      const next = patched(kind, existing, patch);
      const answer = commit<T>(store, kind, existing, onlyStatus(existing, next), {
        dryRun: opts.dryRun,
        requireRV: false,
        subresource: "status",
      });
      return isObject(obj) ? writeBack(obj, answer) : answer;
    },
  };
}
