/**
 * A client whose writes pass a leadership fence first (see LeaderElector.ensureLeading): a leader
 * that was paused past its lease, or saw another holder, writes nothing until it has renewed, and
 * nothing at all once it has lost. Reads are not fenced: a stale read harms no one else.
 */

import type { KubernetesObject } from "../api/meta.js";
import type { SubResourceClientWithCreate } from "../client/client.js";
import { isWriteObservable, type WriteObservable } from "../client/own-writes.js";
import type { Client, SubResourceClient } from "../client/types.js";
import type { Kind } from "../kinds.js";

type SubResourceCreator = Pick<SubResourceClientWithCreate, "create">;

export function fenceWrites(client: Client, fence: () => Promise<void>): Client {
  const sub = (inner: SubResourceClient & Partial<SubResourceCreator>): SubResourceClient => {
    const fenced: SubResourceClient & Partial<SubResourceCreator> = {
      get: (kind, key) => inner.get(kind, key),
      update: async (kind, obj, options) => {
        await fence();
        return inner.update(kind, obj, options);
      },
      patch: async (kind, obj, patch, options) => {
        await fence();
        return inner.patch(kind, obj, patch, options);
      },
    };
    // The API client's subresources can also POST (eviction, token): fenced the same way.
    const create = inner.create?.bind(inner);
    if (create) {
      fenced.create = async (kind, obj, body, options) => {
        await fence();
        return create(kind, obj, body, options);
      };
    }
    return fenced;
  };
  const fenced: Client & Partial<WriteObservable> = {
    get: (kind, key) => client.get(kind, key),
    list: (kind, options) => client.list(kind, options),
    create: async <T extends KubernetesObject>(
      kind: Kind<T>,
      obj: T,
      options?: Parameters<Client["create"]>[2],
    ) => {
      await fence();
      return client.create(kind, obj, options);
    },
    update: async (kind, obj, options) => {
      await fence();
      return client.update(kind, obj, options);
    },
    delete: async (kind, obj, options) => {
      await fence();
      return client.delete(kind, obj, options);
    },
    patch: async (kind, obj, patch, options) => {
      await fence();
      return client.patch(kind, obj, patch, options);
    },
    apply: async (kind, obj, options) => {
      await fence();
      return client.apply(kind, obj, options);
    },
    status: () => sub(client.status()),
    subResource: (name) => sub(client.subResource(name)),
  };
  // Own-write suppression and hot-loop detection observe the writes of the client underneath.
  if (isWriteObservable(client)) fenced.observeWritesTo = client.observeWritesTo.bind(client);
  return fenced;
}
