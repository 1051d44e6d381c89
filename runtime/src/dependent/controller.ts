/**
 * A controller whose whole reconcile is a workflow of dependents (JOSDK's "managed workflow": the
 * dependents declared on the reconciler, no reconcile code). `dependentsController(mgr, Kind, {
 * dependents })` builds it with the builder: for(Kind), owns() every dependent kind (events of
 * owner-referenced dependents reconcile their primary), and a watch mapping the primary annotation
 * of cluster-scoped and cross-namespace dependents back to their primary. A dependent with an
 * activation condition is watched only once that condition first holds, so an optional CRD that is
 * not installed starts no failing informer.
 *
 * Each reconcile: read the primary (cached); when it is being deleted, run the workflow's cleanup
 * and the user's `finalize`, then drop the finalizer; otherwise add the finalizer if some dependent
 * needs an explicit delete (or `finalize` is set), reconcile the workflow, record an event on the
 * primary for each dependent written or failed, and write the Ready / Progressing / Degraded
 * conditions to status only when one changed. A steady-state reconcile therefore writes nothing.
 * Events come before the status write: a write that fails on a conflict is retried, and the retry
 * finds the dependent already applied, so an event recorded after it would be lost. Failures are
 * rethrown after status is written, so the controller retries with backoff while status already
 * says why.
 */

import type { Kind } from "../api/kind.js";
import type { Condition, KubernetesObject } from "../api/meta.js";
import { type BuilderControllerOptions, controllerManagedBy } from "../builder/builder.js";
import { isNotFound } from "../client/errors.js";
import { mergePatch } from "../client/patch.js";
import type { Client, ObjectKey } from "../client/types.js";
import type { Controller } from "../controller/controller.js";
import { gatedKindSource } from "../controller/source.js";
import { containsFinalizer } from "../controllerutil/finalizers.js";
import { enqueueRequestForOwner, enqueueRequestsFromMapFunc } from "../handler/enqueue.js";
import type { EventHandler } from "../handler/types.js";
import type { Manager } from "../manager/types.js";
import type { Result } from "../reconcile/types.js";
import { type Dependent, primaryKeyFrom } from "./dependent.js";
import {
  type CleanupResult,
  DependentError,
  setWorkflowConditions,
  Workflow,
  type WorkflowResult,
} from "./workflow.js";

export interface DependentsControllerOptions<P extends KubernetesObject> {
  dependents: readonly Dependent<P>[];
  /** Controller name (metrics, logs); default the lower-case primary kind. */
  name?: string;
  /** Server-side apply field manager; default the controller name. */
  fieldManager?: string;
  /**
   * Finalizer added when some dependent needs an explicit delete, or `finalize` is set; default
   * `dependents.kbts.io/<name>`.
   */
  finalizer?: string;
  /**
   * Cleanup of the user's own before a primary goes (backups, accounts outside the cluster): called once
   * the dependents' cleanup is done, before the finalizer is removed; a throw keeps the finalizer and
   * retries with backoff. Setting it puts the finalizer on every primary.
   */
  finalize?(primary: P): void | Promise<void>;
  /**
   * Record an event on the primary for each dependent written (Normal `Applied`, "<dependent> applied")
   * or failed (Warning `Failed`, the error), through the recorder `<name>-controller` (default true).
   * None in steady state.
   */
  events?: boolean;
  /** Write Ready, Progressing and Degraded to status.conditions (default true; needs a status subresource). */
  conditions?: boolean;
  /** Reconcile again after this long while some dependent is not ready (default: only on events). */
  notReadyRequeueAfterMs?: number;
  /** How soon to look again while cleanup waits for a delete postcondition; default 1 s. */
  cleanupRequeueAfterMs?: number;
  controllerOptions?: BuilderControllerOptions;
  /** Called after each reconcile of a live primary with what the workflow did (logging, metrics, tests). */
  onReconciled?(primary: P, result: WorkflowResult): void;
  /** Called after each cleanup pass of a primary being deleted. */
  onCleanup?(primary: P, result: CleanupResult): void;
}

export interface DependentsController<P extends KubernetesObject> {
  controller: Controller;
  workflow: Workflow<P>;
}

export function dependentsController<P extends KubernetesObject>(
  mgr: Manager,
  primaryKind: Kind<P>,
  options: DependentsControllerOptions<P>,
): DependentsController<P> {
  const name = options.name ?? primaryKind.kind.toLowerCase();
  const fieldManager = options.fieldManager ?? name;
  const finalizer = options.finalizer ?? `dependents.kbts.io/${name}`;
  const client: Client = mgr.getClient();
  const workflow = new Workflow(options.dependents, { primaryKind, client, fieldManager });
  const recorder = (options.events ?? true) ? mgr.getEventRecorderFor(`${name}-controller`) : undefined;
  const needsFinalizer = (primary: P) => options.finalize !== undefined || workflow.needsCleanup(primary);

  const toPrimary = enqueueRequestsFromMapFunc((obj: KubernetesObject) => {
    const key = primaryKeyFrom(primaryKind, obj);
    return key ? [key] : [];
  });
  const toOwner = enqueueRequestForOwner(primaryKind, { onlyControllerOwner: true });
  const watchedKinds = new Set<Kind>();
  const lateKinds = new Set<Kind>();

  let builder = controllerManagedBy(mgr).for(primaryKind).named(name);
  if (options.controllerOptions) builder = builder.withOptions(options.controllerOptions);
  for (const dep of options.dependents) {
    if (dep.activeWhen) {
      lateKinds.add(dep.kind);
      continue;
    }
    if (watchedKinds.has(dep.kind)) continue;
    watchedKinds.add(dep.kind);
    builder = builder.owns(dep.kind).watches(dep.kind, toPrimary);
  }

  // Set below, before any reconcile can run (the manager starts controllers later).
  let controller: Controller | undefined;
  /** Watches a kind whose dependent just became active (see the module comment). */
  const watchLate = (kind: Kind) => {
    if (!controller || watchedKinds.has(kind)) return;
    watchedKinds.add(kind);
    const cache = mgr.getCache();
    const gate = controller.ownWriteFilter;
    controller.watch(gatedKindSource(cache, kind, toOwner as EventHandler, [], gate));
    controller.watch(gatedKindSource(cache, kind, toPrimary as EventHandler, [], gate));
  };

  controller = builder.complete({
    async reconcile(request): Promise<Result | undefined> {
      const key: ObjectKey = { namespace: request.namespace, name: request.name };
      let primary: P;
      try {
        primary = await client.get(primaryKind, key);
      } catch (err) {
        if (isNotFound(err)) return undefined; // gone: owner references and cleanup took care of the rest
        throw err;
      }

      if (primary.metadata?.deletionTimestamp) {
        if (!containsFinalizer(primary, finalizer)) return undefined;
        const cleanup = await workflow.cleanup(primary);
        options.onCleanup?.(primary, cleanup);
        if (cleanup.errors.length > 0) throw new AggregateError(cleanup.errors, cleanup.errors.join("; "));
        if (!cleanup.done) return { requeueAfter: options.cleanupRequeueAfterMs ?? 1_000 };
        await options.finalize?.(primary);
        const finalizers = (primary.metadata.finalizers ?? []).filter((f) => f !== finalizer);
        await client.patch(primaryKind, key, lockedPatch(primary, { metadata: { finalizers } }));
        return undefined;
      }

      if (!containsFinalizer(primary, finalizer) && needsFinalizer(primary)) {
        const finalizers = [...(primary.metadata?.finalizers ?? []), finalizer];
        primary = await client.patch(primaryKind, key, lockedPatch(primary, { metadata: { finalizers } }));
      }

      const result = await workflow.reconcile(primary);
      for (const r of result.dependents) {
        const dep = options.dependents.find((d) => d.name === r.name);
        if (dep && lateKinds.has(dep.kind) && r.state !== "inactive") watchLate(dep.kind);
        if (r.state === "failed")
          recorder?.event(primary, "Warning", "Failed", new DependentError(r.name, r.error).message);
        else if (r.wrote) recorder?.event(primary, "Normal", "Applied", `${r.name} applied`);
      }
      if (options.conditions ?? true) await writeConditions(client, primaryKind, key, primary, result);
      options.onReconciled?.(primary, result);
      if (result.errors.length > 0) throw new AggregateError(result.errors, result.errors.join("; "));
      if (!result.ready && options.notReadyRequeueAfterMs)
        return { requeueAfter: options.notReadyRequeueAfterMs };
      return undefined;
    },
  });
  return { controller, workflow };
}

/** A merge patch that fails with a Conflict if the primary changed since it was read. */
function lockedPatch(primary: KubernetesObject, data: Record<string, unknown>) {
  const rv = primary.metadata?.resourceVersion;
  const metadata = (data.metadata ?? {}) as Record<string, unknown>;
  return mergePatch({ ...data, metadata: { ...metadata, ...(rv ? { resourceVersion: rv } : {}) } });
}

/** Writes the workflow conditions to the primary's status when (and only when) one changed. */
async function writeConditions<P extends KubernetesObject>(
  client: Client,
  kind: Kind<P>,
  key: ObjectKey,
  primary: P,
  result: WorkflowResult,
): Promise<void> {
  const status = (primary as { status?: { conditions?: Condition[] } }).status;
  const conditions = (status?.conditions ?? []).map((c) => ({ ...c }));
  if (!setWorkflowConditions(conditions, result, primary.metadata?.generation)) return;
  // The whole list goes back (a merge patch replaces lists): locked, so a concurrent writer of
  // another condition makes this fail and retry instead of losing theirs.
  await client.status().patch(kind, key, lockedPatch(primary, { status: { conditions } }));
}
