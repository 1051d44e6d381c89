/**
 * Own-write suppression (JOSDK's event filtering of own updates): a watch event caused only by a
 * write this controller's reconcile made does not enqueue it again. The reconciler already knows
 * what it wrote; the echo would only make it reconcile once more for nothing (and, for a status
 * write on the For object, every reconcile would cost two).
 *
 * The rule, per object (kind, namespace, name):
 * - A write the controller made (in a reconcile, through any client, to the reconciled object or a
 *   child naming it as owner: see client/own-writes.ts's observeWritesTo) with the scope chosen
 *   ("status": writes to the status subresource; "all": every create, update, patch and apply) records
 *   the resourceVersion the API server answered with.
 * - An add or update event whose object has exactly one of those resourceVersions is suppressed: the
 *   object is then, byte for byte, what our own write left. Our recorded versions older than an
 *   event's are forgotten (their echo cannot come any more).
 * - Any other event is delivered: someone else's write, whether before ours, after ours, or between
 *   our write and its echo, has its own resourceVersion. Deletes are always delivered, as are updates
 *   the informer makes up after a relist (their old object may hide writes that were never seen).
 * - While one of our writes of the object is in flight, its events are held: the echo can arrive
 *   before the HTTP answer that tells us its resourceVersion. When the last write in flight is
 *   answered, the held events are judged by the rule above, in order.
 * Versions never echoed (the object is outside the cache's namespaces or selectors) are dropped after
 * `retainMs`.
 */

import { groupKindOf, type Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { InformerEvent } from "../cache/types.js";
import { compareResourceVersions, type ObservedWrite } from "../client/own-writes.js";

/** Which of a controller's own writes do not re-trigger it: its status writes, or all its writes. */
export type OwnWriteSuppression = "status" | "all";

interface Held {
  event: InformerEvent;
  deliver: (event: InformerEvent) => void;
}

interface ObjectState {
  inFlight: number;
  /** resourceVersions our writes returned whose echo has not been seen. */
  own: string[];
  held: Held[];
  touched: number;
}

const SWEEP_ABOVE = 1024;

export class OwnWriteFilter {
  private readonly objects = new Map<string, ObjectState>();
  private readonly retainMs: number;
  /** Events suppressed so far (for tests and debugging). */
  suppressed = 0;

  constructor(
    readonly scope: OwnWriteSuppression,
    options: { retainMs?: number } = {},
  ) {
    this.retainMs = options.retainMs ?? 60_000;
  }

  /** A write of the controller's reconcile is about to be sent; the result is called with the answer. */
  willWrite(write: ObservedWrite): (answer: KubernetesObject | undefined) => void {
    if (write.verb === "delete") return noop;
    if (this.scope === "status" && write.subresource !== "status") return noop;
    const known = write.key
      ? this.state(objectId(write.kind, write.key.namespace, write.key.name))
      : undefined;
    if (known) known.inFlight++;
    return (answer) => {
      const rv = answer?.metadata?.resourceVersion;
      const name = answer?.metadata?.name;
      const state =
        known ??
        (rv && name ? this.state(objectId(write.kind, answer?.metadata?.namespace, name)) : undefined);
      if (!state) return;
      if (known) known.inFlight--;
      if (rv) state.own.push(rv);
      state.touched = Date.now();
      if (state.inFlight === 0 && state.held.length > 0) {
        const held = state.held.splice(0);
        for (const h of held) this.judge(state, h.event, h.deliver);
      }
      this.forgetIfIdle(
        write.kind,
        answer?.metadata?.namespace ?? write.key?.namespace,
        name ?? write.key?.name,
        state,
      );
    };
  }

  /** An event of `kind` from a source of this controller: delivered now, later, or not at all. */
  admit<T extends KubernetesObject>(
    kind: Kind,
    event: InformerEvent<T>,
    deliver: (event: InformerEvent<T>) => void,
  ): void {
    if (this.objects.size === 0) {
      deliver(event);
      return;
    }
    const meta = event.object.metadata;
    const id = objectId(kind, meta?.namespace, meta?.name ?? "");
    const state = this.objects.get(id);
    if (!state) {
      deliver(event);
      return;
    }
    const d = deliver as (event: InformerEvent) => void;
    if (state.inFlight > 0) {
      state.held.push({ event, deliver: d });
      return;
    }
    this.judge(state, event, d);
    this.forgetIfIdle(kind, meta?.namespace, meta?.name, state);
  }

  /** How many objects have state (bounded: entries leave once echoed or after retainMs). */
  get size(): number {
    return this.objects.size;
  }

  private judge(state: ObjectState, event: InformerEvent, deliver: (event: InformerEvent) => void): void {
    if (event.type === "delete") {
      state.own.length = 0;
      deliver(event);
      return;
    }
    const rv = event.object.metadata?.resourceVersion ?? "";
    const ours = state.own.includes(rv);
    // Our versions older than this event will not be echoed any more (a relist skipped them).
    state.own = state.own.filter((v) => v !== rv && (compareResourceVersions(v, rv) ?? 1) > 0);
    if (ours && !(event.type === "update" && event.relisted)) {
      this.suppressed++;
      return;
    }
    deliver(event);
  }

  private state(id: string): ObjectState {
    let s = this.objects.get(id);
    if (!s) {
      if (this.objects.size >= SWEEP_ABOVE) this.sweep();
      s = { inFlight: 0, own: [], held: [], touched: Date.now() };
      this.objects.set(id, s);
    }
    return s;
  }

  private forgetIfIdle(
    kind: Kind,
    namespace: string | undefined,
    name: string | undefined,
    s: ObjectState,
  ): void {
    if (name && s.inFlight === 0 && s.own.length === 0 && s.held.length === 0) {
      this.objects.delete(objectId(kind, namespace, name));
    }
  }

  private sweep(): void {
    const cutoff = Date.now() - this.retainMs;
    for (const [id, s] of this.objects) {
      if (s.inFlight === 0 && s.held.length === 0 && s.touched < cutoff) this.objects.delete(id);
    }
  }
}

function noop(): void {}

function objectId(kind: Kind, namespace: string | undefined, name: string): string {
  return `${groupKindOf(kind)}|${kind.namespaced && namespace ? `${namespace}/` : ""}${name}`;
}
