import type { KubernetesObject, ObjectMeta } from "../api/meta.js";
import type { ObjectKey, Patch, SubResourceClient, WriteOptions } from "../client/types.js";
import { jsonClone } from "../controllerutil/json.js";
import type { Kind } from "../kinds.js";
import { notFound } from "./errors.js";
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

/** The status subresource: reads the object, writes only its status; NotFound for kinds without one. */
export function statusClient(store: FakeStore): SubResourceClient {
  const guard = (kind: Kind, name: string) => {
    if (!store.info(kind).statusSubresource) throw notFound(kind, name);
  };
  return {
    async get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
      return out<T>(kind, store.existingOf(kind, key));
    },
    async update<T extends KubernetesObject>(kind: Kind<T>, obj: T, opts: WriteOptions = {}): Promise<T> {
      const existing = store.existingOf(kind, obj);
      guard(kind, existing.metadata?.name ?? "");
      return commit(store, kind, existing, onlyStatus(existing, obj), {
        dryRun: opts.dryRun,
        requireRV: false,
        subresource: "status",
      });
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
      return commit(store, kind, existing, onlyStatus(existing, next), {
        dryRun: opts.dryRun,
        requireRV: false,
        subresource: "status",
      });
    },
  };
}
