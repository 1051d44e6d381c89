import { groupKindOf, type Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { Cache, Informer, InformerEvent } from "../cache/types.js";
import type { EventHandler, GenericEvent, RequestQueue } from "../handler/types.js";
import { CallLimiter } from "../internal/call-limiter.js";
import { sleepUnlessAborted } from "../internal/sleep.js";
import type { Logger } from "../log/types.js";
import { evaluatePredicates, type Predicate, type PredicateEventType } from "../predicate/predicate.js";
import { traceEvent } from "../tracing/tracing.js";

/** Where a controller's events come from (controller-runtime's source.Source). */
export interface Source {
  /** A name for logs and errors, e.g. "kind source: Pod". */
  readonly name: string;
  /** Begins delivering events to the queue; must not block until the signal aborts. */
  start(queue: RequestQueue, signal: AbortSignal, logger: Logger): Promise<void>;
  /** Resolves true once the source has delivered its initial state, false if the signal aborts first. */
  waitForSync(signal: AbortSignal): Promise<boolean>;
  /**
   * Starts what the source reads from (its informer) without delivering events, before the
   * controller leads (warm standby). Must not wait for sync: the manager's cache sync does.
   */
  warmUp?(signal: AbortSignal): Promise<void>;
}

/** Returns the handler's promise (settled, errors logged) so an event span can end with it. */
function runHandler(
  promise: void | Promise<void>,
  logger: Logger,
  type: PredicateEventType,
): void | Promise<void> {
  if (promise && typeof (promise as Promise<void>).catch === "function") {
    return (promise as Promise<void>).catch((err: unknown) =>
      logger.error({ err, event: type }, "event handler failed; the event was dropped"),
    );
  }
}

function dispatchEvent<T extends KubernetesObject>(
  handler: EventHandler<T>,
  predicates: readonly Predicate<T>[],
  queue: RequestQueue,
  logger: Logger,
  ev: InformerEvent<T>,
): void | Promise<void> {
  try {
    switch (ev.type) {
      case "add": {
        const e = { object: ev.object, isInInitialList: ev.isInInitialList };
        if (evaluatePredicates(predicates, "create", e))
          return runHandler(handler.create(e, queue), logger, "create");
        return;
      }
      case "update": {
        const e = { objectOld: ev.oldObject, objectNew: ev.object };
        if (evaluatePredicates(predicates, "update", e))
          return runHandler(handler.update(e, queue), logger, "update");
        return;
      }
      case "delete": {
        const e = { object: ev.object, deleteStateUnknown: ev.deleteStateUnknown };
        if (evaluatePredicates(predicates, "delete", e))
          return runHandler(handler.delete(e, queue), logger, "delete");
        return;
      }
    }
  } catch (err) {
    // A throwing predicate or handler must not stop the informer's event delivery.
    logger.error({ err, event: ev.type }, "predicate or event handler threw; the event was dropped");
  }
}

/**
 * A source's asynchronous handler calls (map functions that read the cache) in flight at once; the
 * rest of a burst, such as an informer's initial list, waits in order (internal/call-limiter.ts says
 * what running them all at once cost). Handlers that return no promise are not held back.
 */
const HANDLER_CALLS_IN_FLIGHT = 8;

/** Events of one Kind from the cache's informer (controller-runtime's source.Kind). */
export function kindSource<T extends KubernetesObject>(
  cache: Cache,
  kind: Kind<T>,
  handler: EventHandler<T>,
  ...predicates: Predicate<T>[]
): Source {
  return gatedKindSource(cache, kind, handler, predicates, undefined);
}

/** Decides whether (and when) an informer event goes on to the predicates and handler. */
export interface EventGate {
  admit<T extends KubernetesObject>(
    kind: Kind,
    event: InformerEvent<T>,
    deliver: (event: InformerEvent<T>) => void,
  ): void;
}

/** kindSource whose events first pass a gate (the controller's own-write filter). */
export function gatedKindSource<T extends KubernetesObject>(
  cache: Cache,
  kind: Kind<T>,
  handler: EventHandler<T>,
  predicates: Predicate<T>[],
  gate: EventGate | undefined,
): Source {
  let informer: Informer<T> | undefined;
  let started: (() => void) | undefined;
  const startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  return {
    name: `kind source: ${groupKindOf(kind)}`,
    async start(queue, signal, logger) {
      const inf = await cache.getInformer(kind);
      const groupKind = groupKindOf(kind);
      const calls = new CallLimiter(HANDLER_CALLS_IN_FLIGHT);
      const deliver = (ev: InformerEvent<T>) =>
        traceEvent(
          {
            kind: groupKind,
            type: ev.type,
            namespace: ev.object.metadata?.namespace,
            name: ev.object.metadata?.name,
            resourceVersion: ev.object.metadata?.resourceVersion,
            initialList: ev.type === "add" && ev.isInInitialList,
          },
          () => dispatchEvent(handler, predicates, queue, logger, ev),
        );
      const dispatch = (ev: InformerEvent<T>) => calls.run(() => deliver(ev));
      // The own-write gate comes first: a suppressed echo is not an event of this controller at all.
      const unsubscribe = inf.addEventHandler(gate ? (ev) => gate.admit(kind, ev, dispatch) : dispatch);
      signal.addEventListener("abort", unsubscribe, { once: true });
      informer = inf;
      started?.();
    },
    async warmUp() {
      // Creating the informer is enough: the cache starts it, and start() later attaches to it.
      await cache.getInformer(kind);
    },
    async waitForSync(signal) {
      await Promise.race([startedPromise, aborted(signal)]);
      if (signal.aborted || !informer) return false;
      if (informer.waitForSync) return informer.waitForSync(signal);
      // An Informer without waitForSync (written before it joined the interface) can only be polled.
      while (!signal.aborted) {
        if (informer.hasSynced()) return true;
        await sleepUnlessAborted(10, signal);
      }
      return false;
    },
  };
}

/** A source fed by the program itself: `emit(obj)` delivers a generic event (controller-runtime's source.Channel). */
export interface ChannelSource<T extends KubernetesObject> extends Source {
  emit(object: T): void;
}

export function channelSource<T extends KubernetesObject>(
  handler: EventHandler<T>,
  ...predicates: Predicate<T>[]
): ChannelSource<T> {
  let deliver: ((e: GenericEvent<T>) => void) | undefined;
  const backlog: GenericEvent<T>[] = [];
  return {
    name: "channel source",
    async start(queue, signal, logger) {
      // Events emitted before the start arrive here as one burst: bounded like a kind source's.
      const calls = new CallLimiter(HANDLER_CALLS_IN_FLIGHT);
      const handle = (e: GenericEvent<T>): void | Promise<void> => {
        try {
          // runHandler logs a failed handler itself: its promise never rejects.
          if (evaluatePredicates(predicates, "generic", e))
            return runHandler(handler.generic(e, queue), logger, "generic");
        } catch (err) {
          logger.error({ err, event: "generic" }, "predicate or event handler threw; the event was dropped");
        }
      };
      deliver = (e) => calls.run(() => handle(e));
      signal.addEventListener("abort", () => {
        deliver = undefined;
      });
      for (const e of backlog.splice(0)) deliver(e);
    },
    async waitForSync() {
      return true;
    },
    emit(object) {
      if (deliver) deliver({ object });
      else backlog.push({ object });
    },
  };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
