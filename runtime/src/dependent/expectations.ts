/**
 * Expectations: "I created 3 pods; do not count them again until my cache has seen them" (client-go's
 * ControllerExpectations, which the ReplicaSet and Job controllers use; JOSDK 5.2's expectation
 * helper). A reconcile that creates or deletes N objects records N expected creations or deletions
 * under the primary's key; the informer's add and delete events lower them; until they reach zero,
 * `satisfied(key)` is false and the reconcile must not act on its (stale) list again. An expectation
 * older than the timeout (client-go: 5 minutes) counts as satisfied, so a lost event cannot wedge a
 * primary forever.
 *
 * How it fits read-your-own-writes (client/own-writes.ts): the cached client already makes a get of an
 * object it wrote, and a list of that kind, wait (up to a short bound, 3 s) for the cache to reach
 * its own writes. That covers the common case for objects written by name through that client.
 * Expectations cover what it cannot: deletes (an immediate delete returns no object whose
 * resourceVersion could be awaited), creates with generateName seen by other reconciles' lists, and a
 * cache lagging past the bound. Both are fed by the same informer, so once expectations are
 * satisfied a cached list holds every object counted. And `expectOwnCreations` raises them from the
 * same write observers the client uses to know a reconcile's own writes: every create through the
 * client of an object owned by the primary counts, raised before it is sent (as client-go's
 * controllers do, so the informer's event can never come first) and lowered again if it fails.
 */

import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { Informer } from "../cache/types.js";
import type { WriteObservable } from "../client/own-writes.js";
import type { ObjectKey } from "../client/types.js";

/** client-go's ExpectationsTimeout. */
export const DEFAULT_EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface Expectation {
  add: number;
  del: number;
  setAt: number;
  /** UIDs whose deletion was already counted (a graceful delete shows first as an update, then as a delete). */
  deleted: Set<string>;
}

export interface ExpectationsOptions {
  /** After this long an unmet expectation counts as satisfied; default 5 minutes. */
  timeoutMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** client-go's ControllerExpectations, keyed by the primary's "namespace/name". */
export class ControllerExpectations {
  private readonly byKey = new Map<string, Expectation>();
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(options: ExpectationsOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_EXPECTATIONS_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  /** Replaces the expectations of `key`: `add` creations and `del` deletions still to be seen. */
  setExpectations(key: string, add: number, del: number): void {
    this.byKey.set(key, { add, del, setAt: this.now(), deleted: new Set() });
  }

  expectCreations(key: string, n: number): void {
    this.setExpectations(key, n, 0);
  }

  expectDeletions(key: string, n: number): void {
    this.setExpectations(key, 0, n);
  }

  /** Adds to the expectations of `key` (a reconcile creating more before the last ones were seen). */
  raiseExpectations(key: string, add: number, del: number): void {
    const e = this.byKey.get(key);
    if (!e) this.setExpectations(key, add, del);
    else {
      e.add += add;
      e.del += del;
    }
  }

  /** Lowers the expectations of `key`; unknown keys are ignored. */
  lowerExpectations(key: string, add: number, del: number): void {
    const e = this.byKey.get(key);
    if (!e) return;
    e.add -= add;
    e.del -= del;
  }

  creationObserved(key: string): void {
    this.lowerExpectations(key, 1, 0);
  }

  /** A deletion was seen; with a uid, each object's deletion counts once. */
  deletionObserved(key: string, uid?: string): void {
    const e = this.byKey.get(key);
    if (!e) return;
    if (uid !== undefined) {
      if (e.deleted.has(uid)) return;
      e.deleted.add(uid);
    }
    e.del -= 1;
  }

  /** The creations and deletions still expected, or undefined when none were recorded. */
  getExpectations(key: string): { add: number; del: number } | undefined {
    const e = this.byKey.get(key);
    return e ? { add: e.add, del: e.del } : undefined;
  }

  /**
   * Whether the reconcile of `key` may act on its cache: nothing was expected, everything expected
   * was seen, or the expectations are older than the timeout.
   */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.setAt > this.timeoutMs;
  }

  /** Forgets `key` (its primary was deleted). */
  deleteExpectations(key: string): void {
    this.byKey.delete(key);
  }
}

/**
 * Feeds an informer's events to expectations: an add is a creation, a delete (or an update that sets
 * deletionTimestamp) a deletion, each counted under the key `keyOf` gives the object's primary
 * (undefined: not one of ours). Returns the function that stops it.
 */
export function observeExpectations<T extends KubernetesObject>(
  informer: Informer<T>,
  expectations: ControllerExpectations,
  keyOf: (obj: T) => string | undefined,
): () => void {
  return informer.addEventHandler((ev) => {
    const key = keyOf(ev.object);
    if (key === undefined) return;
    const uid = ev.object.metadata?.uid;
    switch (ev.type) {
      case "add":
        // An object already being deleted when first seen counts as a deletion (as client-go's addPod).
        if (ev.object.metadata?.deletionTimestamp) expectations.deletionObserved(key, uid);
        else expectations.creationObserved(key);
        return;
      case "update":
        if (ev.object.metadata?.deletionTimestamp && !ev.oldObject.metadata?.deletionTimestamp) {
          expectations.deletionObserved(key, uid);
        }
        return;
      case "delete":
        expectations.deletionObserved(key, uid);
        return;
    }
  });
}

/**
 * Until the returned function is called, every create sent through `client` of an object whose
 * owner references name the primary `primaryKind`/`primary` raises the creations expected under
 * `key` (before it is sent); a create that fails lowers them back.
 */
export function expectOwnCreations(
  client: WriteObservable,
  expectations: ControllerExpectations,
  key: string,
  primaryKind: Kind,
  primary: ObjectKey,
): () => void {
  return client.observeWritesTo(primaryKind, primary, {
    willWrite(write) {
      if (write.verb !== "create" || write.subresource !== undefined) return () => {};
      expectations.raiseExpectations(key, 1, 0);
      return (answer) => {
        if (!answer) expectations.lowerExpectations(key, 1, 0);
      };
    },
  });
}

/** The expectations key of an object's controller owner: "namespace/name" (name for cluster-scoped). */
export function controllerOwnerKey(obj: KubernetesObject, ownerKind: Kind): string | undefined {
  const ref = obj.metadata?.ownerReferences?.find(
    (r) => r.controller === true && r.kind === ownerKind.kind && groupOf(r.apiVersion) === ownerKind.group,
  );
  if (!ref) return undefined;
  const ns = ownerKind.namespaced ? obj.metadata?.namespace : undefined;
  return ns ? `${ns}/${ref.name}` : ref.name;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}
