import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { matchesSelector, parseFieldSelector, parseSelector } from "../client/selector.js";
import type { ListOptions, ObjectKey } from "../client/types.js";
import { compareStrings } from "../internal/compare.js";
import { type FakeStore, objKey, out } from "./store.js";

/** get: a copy of the stored object, or NotFound. */
export function get<T extends KubernetesObject>(store: FakeStore, kind: Kind<T>, key: ObjectKey): T {
  store.info(kind);
  return out<T>(kind, store.existingOf(kind, key));
}

/** list: by namespace, label selector and field selector (over registered indexes), in key order, paged. */
export function list<T extends KubernetesObject>(store: FakeStore, kind: Kind<T>, opts: ListOptions): T[] {
  store.info(kind);
  const selector = parseSelector(opts.labelSelector);
  const fields = {
    ...(opts.fieldSelector ? parseFieldSelector(opts.fieldSelector) : {}),
    ...(opts.matchingFields ?? {}),
  };
  let items = [...store.bucket(kind).values()]
    .filter((o) => !opts.namespace || !kind.namespaced || o.metadata?.namespace === opts.namespace)
    .filter((o) => matchesSelector(selector, o.metadata?.labels))
    .filter((o) => Object.entries(fields).every(([f, v]) => store.indexValues(kind, f, o).includes(v)))
    // etcd's key order (namespace/name, bytes), which is the order the API server lists in.
    .sort((a, b) =>
      compareStrings(
        objKey(a.metadata?.namespace, a.metadata?.name ?? ""),
        objKey(b.metadata?.namespace, b.metadata?.name ?? ""),
      ),
    );
  const start = opts.continue ? Number(opts.continue) : 0;
  items = items.slice(start, opts.limit ? start + opts.limit : undefined);
  return items.map((o) => out<T>(kind, o));
}
