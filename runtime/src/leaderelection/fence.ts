/**
 * A client whose writes pass a leadership fence first (see LeaderElector.ensureLeading): a leader
 * that was paused past its lease, or saw another holder, writes nothing until it has renewed, and
 * nothing at all once it has lost. Reads are not fenced: a stale read harms no one else.
 *
 * Passing the fence and sending are apart in time: credentials, a busy connection pool, a TLS
 * handshake, a Retry-After wait, or a pause of the whole process can come between. So where the
 * client underneath can take one (isWriteGuardable), `lastCheck` runs again synchronously just before
 * each attempt's first byte is written; a lease that went stale meanwhile sends the write back
 * through the fence, and a lost one fails it, unsent.
 */

import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { isWriteGuardable, type SubResourceClientWithCreate } from "../client/client.js";
import { isWriteObservable, type WriteObservable } from "../client/own-writes.js";
import type { Client, SubResourceClient } from "../client/types.js";
import { StaleLeaseError } from "./elector.js";

type SubResourceCreator = Pick<SubResourceClientWithCreate, "create">;

/** How often one write goes back through the fence after finding the lease stale at send time. */
const STALE_RETRIES = 3;

export function fenceWrites(client: Client, fence: () => Promise<void>, lastCheck?: () => void): Client {
  const inner: Client = lastCheck && isWriteGuardable(client) ? client.withWriteGuard(lastCheck) : client;
  const fenced = async <R>(write: () => Promise<R>): Promise<R> => {
    for (let attempt = 1; ; attempt++) {
      await fence();
      try {
        return await write();
      } catch (err) {
        if (!(err instanceof StaleLeaseError) || attempt >= STALE_RETRIES) throw err;
      }
    }
  };
  const sub = (s: SubResourceClient & Partial<SubResourceCreator>): SubResourceClient => {
    const out: SubResourceClient & Partial<SubResourceCreator> = {
      get: (kind, key) => s.get(kind, key),
      update: (kind, obj, options) => fenced(() => s.update(kind, obj, options)),
      patch: (kind, obj, patch, options) => fenced(() => s.patch(kind, obj, patch, options)),
    };
    // The API client's subresources can also POST (eviction, token): fenced the same way.
    const create = s.create?.bind(s);
    if (create) out.create = (kind, obj, body, options) => fenced(() => create(kind, obj, body, options));
    return out;
  };
  const out: Client & Partial<WriteObservable> = {
    get: (kind, key) => inner.get(kind, key),
    list: (kind, options) => inner.list(kind, options),
    create: <T extends KubernetesObject>(kind: Kind<T>, obj: T, options?: Parameters<Client["create"]>[2]) =>
      fenced(() => inner.create(kind, obj, options)),
    update: (kind, obj, options) => fenced(() => inner.update(kind, obj, options)),
    delete: (kind, obj, options) => fenced(() => inner.delete(kind, obj, options)),
    patch: (kind, obj, patch, options) => fenced(() => inner.patch(kind, obj, patch, options)),
    apply: (kind, obj, options) => fenced(() => inner.apply(kind, obj, options)),
    status: () => sub(inner.status()),
    subResource: (name) => sub(inner.subResource(name)),
  };
  // Own-write suppression and hot-loop detection observe the writes of the client underneath.
  if (isWriteObservable(inner)) out.observeWritesTo = inner.observeWritesTo.bind(inner);
  return out;
}
