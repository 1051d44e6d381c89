import { type Kind, metadataOnly } from "../api/kind.js";
import type { KubernetesObject, PartialObjectMetadata } from "../api/meta.js";
import { ConditionalController, type WhenServedOptions } from "../controller/conditional.js";
import {
  type Controller,
  type ControllerOptions,
  createController,
  createUnmanagedController,
} from "../controller/controller.js";
import { claimControllerName } from "../controller/names.js";
import { gatedKindSource, type Source } from "../controller/source.js";
import { enqueueRequestForObject, enqueueRequestForOwner } from "../handler/enqueue.js";
import type { EventHandler } from "../handler/types.js";
import type { Manager } from "../manager/types.js";
import type { Predicate } from "../predicate/predicate.js";
import type { Reconciler } from "../reconcile/types.js";

export interface WatchOptions<T extends KubernetesObject> {
  predicates?: Predicate<T>[];
  metadataOnly?: false;
}

/**
 * Watch the kind as metadata only (controller-runtime's builder.OnlyMetadata): its informer lists and
 * watches PartialObjectMetadata, so no spec or status is cached, and handlers and predicates receive
 * PartialObjectMetadata. Read those objects with `metadataOnly(Kind)` (e.g. `client.get(metadataOnly(Pod), key)`);
 * a read of the plain Kind starts a second, full informer.
 */
export interface MetadataOnlyWatchOptions {
  predicates?: Predicate<PartialObjectMetadata>[];
  metadataOnly: true;
}

export interface OwnsOptions<T extends KubernetesObject> extends WatchOptions<T> {
  /** Reconcile every owner of the For kind, not only the controller owner (controller-runtime's MatchEveryOwner). */
  matchEveryOwner?: boolean;
}

export interface MetadataOnlyOwnsOptions extends MetadataOnlyWatchOptions {
  matchEveryOwner?: boolean;
}

export type BuilderControllerOptions = Omit<ControllerOptions, "reconciler" | "forKind">;

/**
 * Sugar over source → predicates → handler → queue → controller (controller-runtime's builder):
 * `controllerManagedBy(mgr).for(Kind).owns(Child).complete(reconciler)`.
 */
export interface Builder {
  /** The kind this controller reconciles; its events enqueue the object itself. Exactly once. */
  for<T extends KubernetesObject>(kind: Kind<T>, options?: WatchOptions<T>): Builder;
  for(kind: Kind, options: MetadataOnlyWatchOptions): Builder;
  /** Objects whose controller owner reference points at a For object enqueue that owner. Needs for(). */
  owns<T extends KubernetesObject>(kind: Kind<T>, options?: OwnsOptions<T>): Builder;
  owns(kind: Kind, options: MetadataOnlyOwnsOptions): Builder;
  /** Any kind, mapped to requests by your handler (e.g. enqueueRequestsFromMapFunc). */
  watches<T extends KubernetesObject>(
    kind: Kind<T>,
    handler: EventHandler<T>,
    options?: WatchOptions<T>,
  ): Builder;
  watches(
    kind: Kind,
    handler: EventHandler<PartialObjectMetadata>,
    options: MetadataOnlyWatchOptions,
  ): Builder;
  /** A source used as is: withEventFilter predicates do not apply to it. */
  watchesRawSource(source: Source): Builder;
  /** Predicates applied to every for/owns/watches event. */
  withEventFilter(predicate: Predicate): Builder;
  withOptions(options: BuilderControllerOptions): Builder;
  /** Controller name (metrics label, log field); default the lower-case kind of for(). */
  named(name: string): Builder;
  /**
   * Run the controller only while every kind it watches is served (its CRD installed): it waits,
   * starts when they are, stops and drops their informers when one goes, and starts again when it is
   * back. /readyz notes what it waits for without failing (see controller/conditional.ts).
   */
  whenServed(options?: WhenServedOptions): Builder;
  /** Builds the controller, registers it with the manager and returns it. */
  complete(reconciler: Reconciler): Controller;
  /** Alias of complete(). */
  build(reconciler: Reconciler): Controller;
}

interface WatchInput {
  kind: Kind;
  handler: EventHandler;
  predicates: Predicate[];
}

type AnyWatchOptions = WatchOptions<never> | MetadataOnlyWatchOptions;

/** The kind a for/owns/watches informer is keyed by: its metadata-only view when asked for. */
function watched(kind: Kind, options: AnyWatchOptions | undefined): Kind {
  return options?.metadataOnly ? metadataOnly(kind) : kind;
}

export function controllerManagedBy(mgr: Manager): Builder {
  let forInput: { kind: Kind; predicates: Predicate[] } | undefined;
  const ownsInputs: { kind: Kind; predicates: Predicate[]; matchEveryOwner: boolean }[] = [];
  const watchInputs: WatchInput[] = [];
  const rawSources: Source[] = [];
  const globalPredicates: Predicate[] = [];
  let options: BuilderControllerOptions = {};
  let name: string | undefined;
  let whenServed: WhenServedOptions | undefined;
  let built = false;

  const builder: Builder = {
    for(kind: Kind, opts?: AnyWatchOptions) {
      if (forInput) {
        throw new Error(
          `For(...) should only be called once, could not assign multiple objects for reconciliation (already ${forInput.kind.kind}, now ${kind.kind})`,
        );
      }
      forInput = { kind: watched(kind, opts), predicates: (opts?.predicates ?? []) as Predicate[] };
      return builder;
    },
    owns(kind: Kind, opts?: AnyWatchOptions & { matchEveryOwner?: boolean }) {
      ownsInputs.push({
        kind: watched(kind, opts),
        predicates: (opts?.predicates ?? []) as Predicate[],
        matchEveryOwner: opts?.matchEveryOwner ?? false,
      });
      return builder;
    },
    watches(kind: Kind, handler: EventHandler<never>, opts?: AnyWatchOptions) {
      watchInputs.push({
        kind: watched(kind, opts),
        handler: handler as EventHandler,
        predicates: (opts?.predicates ?? []) as Predicate[],
      });
      return builder;
    },
    watchesRawSource(source) {
      rawSources.push(source);
      return builder;
    },
    withEventFilter(predicate) {
      globalPredicates.push(predicate);
      return builder;
    },
    withOptions(o) {
      options = { ...options, ...o };
      return builder;
    },
    named(n) {
      name = n;
      return builder;
    },
    whenServed(o = {}) {
      whenServed = o;
      return builder;
    },
    build(reconciler) {
      return builder.complete(reconciler);
    },
    complete(reconciler) {
      if (built)
        throw new Error(
          "complete() was already called on this builder; start a new controllerManagedBy(mgr)",
        );
      if (!reconciler || typeof reconciler.reconcile !== "function") {
        throw new Error(
          "complete(reconciler): the reconciler must have a reconcile(request, context) method",
        );
      }
      if (ownsInputs.length > 0 && !forInput) {
        throw new Error("Owns() can only be used together with For()");
      }
      const controllerName = name ?? forInput?.kind.kind.toLowerCase();
      if (!controllerName) throw new Error("one of For() or Named() must be called");
      if (!/^[a-zA-Z_][a-zA-Z0-9_-]*$/.test(controllerName)) {
        throw new Error(
          `controller name "${controllerName}" must start with a letter or "_" and contain only letters, digits, "_" and "-" (it becomes a metrics label and log field)`,
        );
      }
      if (!forInput && ownsInputs.length === 0 && watchInputs.length === 0 && rawSources.length === 0) {
        throw new Error(
          "there are no watches configured, controller will never get triggered. Use For(), Owns(), Watches() or WatchesRawSource() to set them up",
        );
      }
      built = true;
      // A sharded manager shards the For kind: its cache watches only this replica's objects, and
      // the reconciler skips objects assigned elsewhere and hands back those being drained.
      const shard = mgr.getShard?.();
      if (shard && forInput) {
        shard.shardKind(forInput.kind);
        reconciler = shard.reconciler(forInput.kind, reconciler);
      }
      const controllerOptions: ControllerOptions = { ...options, reconciler, forKind: forInput?.kind };
      const cache = mgr.getCache();
      /** The sources of every for/owns/watches input, on `controller`. */
      const addSources = (controller: Controller): Controller => {
        const gate = controller.ownWriteFilter;
        const kindSource = (kind: Kind, handler: EventHandler, ...predicates: Predicate[]) =>
          gatedKindSource(cache, kind, handler, predicates, gate);
        if (forInput) {
          controller.watch(
            kindSource(forInput.kind, enqueueRequestForObject(), ...globalPredicates, ...forInput.predicates),
          );
        }
        for (const o of ownsInputs) {
          // forInput is set: checked above.
          const owner = forInput?.kind as Kind;
          const handler = enqueueRequestForOwner(owner, { onlyControllerOwner: !o.matchEveryOwner });
          controller.watch(kindSource(o.kind, handler, ...globalPredicates, ...o.predicates));
        }
        for (const w of watchInputs) {
          controller.watch(kindSource(w.kind, w.handler, ...globalPredicates, ...w.predicates));
        }
        for (const s of rawSources) controller.watch(s);
        return controller;
      };
      if (!whenServed) return addSources(createController(mgr, controllerName, controllerOptions));
      if (rawSources.length > 0) {
        throw new Error(
          "whenServed(): a raw source cannot be started again when its kinds come back; use For(), Owns() or Watches()",
        );
      }
      // The name is claimed once, here: each activation builds a controller of that same name.
      claimControllerName(controllerName, options.skipNameValidation);
      const conditional = new ConditionalController(
        {
          name: controllerName,
          needLeaderElection: options.needLeaderElection ?? true,
          kinds: [forInput?.kind, ...ownsInputs.map((o) => o.kind), ...watchInputs.map((w) => w.kind)].filter(
            (k): k is Kind => k !== undefined,
          ),
          build: () =>
            addSources(
              createUnmanagedController(
                controllerName,
                { logger: mgr.getLogger(), ...controllerOptions, skipNameValidation: true },
                { reader: cache, client: mgr.getClient() },
              ),
            ),
          cache,
          kubeConfig: mgr.getConfig(),
          logger: mgr.getLogger(),
        },
        whenServed,
      );
      mgr.add(conditional);
      mgr.addReadyzCheck(`${controllerName}-kinds-served`, () => conditional.readyzNote());
      return conditional;
    },
  };
  return builder;
}
