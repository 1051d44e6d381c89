/**
 * Workflows: the Java Operator SDK's workflow of dependent resources, as a function of the primary.
 *
 * The dependents form a graph by `dependsOn`. `reconcile(primary)` walks it: every dependent starts
 * as soon as the ones it depends on are reconciled and ready, so independent dependents are
 * reconciled in parallel, and a failure only holds back what depends on the failed one (its
 * siblings go on). For each dependent, in order: the activation condition (`activeWhen`; false:
 * not touched at all, not even read), the reconcile precondition (`reconcileWhen`; false: left as
 * it is), the apply (dependent.ts: skipped when the cache already matches), the ready postcondition
 * (`ready`; false: its dependents wait). A dependent below an inactive or skipped one is inactive or
 * skipped too, as in JOSDK (which, unlike here, also deletes a dependent whose precondition fails:
 * here it is only left alone; deletion happens with the primary).
 *
 * `cleanup(primary)` walks the graph backwards when the primary is being deleted: a dependent is
 * deleted once everything that depends on it is deleted and its delete postcondition (`deletedWhen`,
 * default: gone) holds. Garbage-collected dependents (owner references) are left to the garbage
 * collector and count as deleted at once; the workflow deletes only the cluster-scoped and
 * cross-namespace ones an owner reference cannot name.
 *
 * `setWorkflowConditions` turns a result into the primary's `Ready`, `Progressing` and `Degraded`
 * conditions (the kstatus / OpenShift ClusterOperator trio), each with the primary's generation as
 * observedGeneration and a reason naming the dependent that decides it ("DeploymentNotReady",
 * "ConfigMapFailed"), so no reconciler writes status code for dependents by hand.
 */

import type { Kind } from "../api/kind.js";
import type { Condition, KubernetesObject } from "../api/meta.js";
import type { Client } from "../client/types.js";
import { type ConditionInput, setStatusCondition } from "../conditions/conditions.js";
import {
  type Dependent,
  deleteAnnotatedDependents,
  deleteDependent,
  desiredObject,
  garbageCollected,
  reconcileDependent,
} from "./dependent.js";

/**
 * Where one dependent stands after a reconcile:
 * - ready: applied (or already matching) and its ready postcondition holds;
 * - notReady: applied, not ready yet;
 * - failed: its conditions, desired() or the API call threw;
 * - waiting: a dependency is not ready yet; blocked: a dependency failed;
 * - skipped: its reconcile precondition (or a dependency's) is false;
 * - inactive: its activation condition (or a dependency's) is false.
 */
export type DependentState = "ready" | "notReady" | "failed" | "waiting" | "blocked" | "skipped" | "inactive";

export interface DependentResult {
  readonly name: string;
  readonly state: DependentState;
  /** The object as last read or applied (ready and notReady only). */
  readonly object?: KubernetesObject;
  /** Whether a write was sent for it in this reconcile. */
  readonly wrote: boolean;
  readonly error?: unknown;
  /** For waiting, blocked, skipped and inactive through a dependency: that dependency's name. */
  readonly dependency?: string;
}

export interface WorkflowResult {
  /** One per dependent, in declaration order. */
  readonly dependents: readonly DependentResult[];
  /** Every dependent that is reconciled is ready, and none failed. */
  readonly ready: boolean;
  /** The errors of the failed dependents. */
  readonly errors: readonly DependentError[];
  /** How many writes this reconcile sent (0 in steady state). */
  readonly writes: number;
}

export interface CleanupResult {
  /** Every dependent is deleted (or left to the garbage collector) and its delete postcondition holds. */
  readonly done: boolean;
  readonly pending: readonly string[];
  readonly errors: readonly DependentError[];
}

/** One dependent's failure, naming it. */
export class DependentError extends Error {
  constructor(
    readonly dependent: string,
    cause: unknown,
  ) {
    super(`dependent ${dependent}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "DependentError";
  }
}

export interface WorkflowOptions<P extends KubernetesObject> {
  /** The primary's kind (owner references and the primary annotation name it). */
  primaryKind: Kind<P>;
  /** Reads (cached, read-your-own-writes) and writes of the dependents. */
  client: Client;
  /** Server-side apply field manager: one per controller. */
  fieldManager: string;
}

export class Workflow<P extends KubernetesObject> {
  readonly dependents: readonly Dependent<P>[];
  private readonly dependentsOf = new Map<Dependent<P>, Dependent<P>[]>();

  constructor(
    dependents: readonly Dependent<P>[],
    private readonly options: WorkflowOptions<P>,
  ) {
    this.dependents = dependents;
    validateGraph(dependents);
    for (const d of dependents) this.dependentsOf.set(d, []);
    for (const d of dependents)
      for (const parent of d.dependsOn ?? []) this.dependentsOf.get(parent)?.push(d);
  }

  /** Reconciles every dependent in dependsOn order, independent ones in parallel (see the module comment). */
  async reconcile(primary: P): Promise<WorkflowResult> {
    const runs = new Map<Dependent<P>, Promise<DependentResult>>();
    const run = (dep: Dependent<P>): Promise<DependentResult> => {
      let p = runs.get(dep);
      if (!p) {
        p = this.reconcileOne(dep, primary, () => Promise.all((dep.dependsOn ?? []).map(run)));
        runs.set(dep, p);
      }
      return p;
    };
    const results = await Promise.all(this.dependents.map(run));
    const errors = results.flatMap((r) =>
      r.state === "failed" ? [new DependentError(r.name, r.error)] : [],
    );
    return {
      dependents: results,
      ready: results.every((r) => r.state === "ready" || r.state === "skipped" || r.state === "inactive"),
      errors,
      writes: results.filter((r) => r.wrote).length,
    };
  }

  /**
   * Deletes the dependents the garbage collector cannot, dependents before what they depend on, each
   * only once everything depending on it is gone (see the module comment). Call it again until done.
   */
  async cleanup(primary: P): Promise<CleanupResult> {
    const runs = new Map<Dependent<P>, Promise<{ deleted: boolean; error?: unknown }>>();
    const run = (dep: Dependent<P>): Promise<{ deleted: boolean; error?: unknown }> => {
      let p = runs.get(dep);
      if (!p) {
        p = (async () => {
          const after = await Promise.all((this.dependentsOf.get(dep) ?? []).map(run));
          if (after.some((a) => !a.deleted)) return { deleted: false };
          try {
            if (dep.activeWhen && !(await dep.activeWhen(primary))) return { deleted: true };
            let desired: KubernetesObject;
            try {
              desired = desiredObject(dep, this.options.primaryKind, primary);
            } catch {
              // No desired object to name it by: find what this primary made by its annotation.
              const { client, primaryKind } = this.options;
              return { deleted: await deleteAnnotatedDependents(client, dep, primaryKind, primary) };
            }
            if (garbageCollected(dep.kind, primary, desired)) return { deleted: true };
            const actual = await deleteDependent(this.options.client, dep, this.options.primaryKind, primary);
            const gone = dep.deletedWhen ? await dep.deletedWhen(actual, primary) : actual === undefined;
            return { deleted: gone };
          } catch (error) {
            return { deleted: false, error };
          }
        })();
        runs.set(dep, p);
      }
      return p;
    };
    const results = await Promise.all(this.dependents.map(run));
    return {
      done: results.every((r) => r.deleted),
      pending: this.dependents.filter((_, i) => !results[i]?.deleted).map((d) => d.name),
      errors: this.dependents.flatMap((d, i) =>
        results[i]?.error === undefined ? [] : [new DependentError(d.name, results[i]?.error)],
      ),
    };
  }

  /** Whether some dependent of this primary must be deleted by cleanup (so the primary needs a finalizer). */
  needsCleanup(primary: P): boolean {
    return this.dependents.some((dep) => {
      try {
        return !garbageCollected(dep.kind, primary, desiredObject(dep, this.options.primaryKind, primary));
      } catch {
        return false; // desired() fails: reconcile reports it; nothing was made to clean up
      }
    });
  }

  private async reconcileOne(
    dep: Dependent<P>,
    primary: P,
    dependencies: () => Promise<DependentResult[]>,
  ): Promise<DependentResult> {
    const name = dep.name;
    const parents = await dependencies();
    for (const state of ["inactive", "skipped", "failed", "blocked", "notReady", "waiting"] as const) {
      const parent = parents.find((p) => p.state === state);
      if (!parent) continue;
      const mine: DependentState =
        state === "inactive" || state === "skipped"
          ? state
          : state === "failed" || state === "blocked"
            ? "blocked"
            : "waiting";
      return { name, state: mine, wrote: false, dependency: parent.name };
    }
    try {
      if (dep.activeWhen && !(await dep.activeWhen(primary)))
        return { name, state: "inactive", wrote: false };
      if (dep.reconcileWhen && !(await dep.reconcileWhen(primary))) {
        return { name, state: "skipped", wrote: false };
      }
      const { object, wrote } = await reconcileDependent(
        this.options.client,
        this.options.fieldManager,
        dep,
        this.options.primaryKind,
        primary,
      );
      const ready = dep.ready ? dep.ready(object, primary) : true;
      return { name, state: ready ? "ready" : "notReady", object, wrote };
    } catch (error) {
      return { name, state: "failed", wrote: false, error };
    }
  }
}

function validateGraph<P extends KubernetesObject>(dependents: readonly Dependent<P>[]): void {
  const names = new Set<string>();
  for (const d of dependents) {
    if (names.has(d.name)) {
      throw new Error(`two dependents are named "${d.name}": give one of them another name option`);
    }
    names.add(d.name);
  }
  const members = new Set(dependents);
  for (const d of dependents) {
    for (const parent of d.dependsOn ?? []) {
      if (!members.has(parent)) {
        throw new Error(
          `dependent ${d.name} depends on ${parent.name}, which is not in the workflow: add it to the dependents`,
        );
      }
    }
  }
  // Depth-first search for a cycle, naming it.
  const state = new Map<Dependent<P>, "visiting" | "done">();
  const visit = (d: Dependent<P>, path: string[]): void => {
    if (state.get(d) === "done") return;
    if (state.get(d) === "visiting") {
      throw new Error(
        `dependents form a cycle: ${[...path, d.name].join(" → ")}; a workflow must be acyclic`,
      );
    }
    state.set(d, "visiting");
    for (const parent of d.dependsOn ?? []) visit(parent, [...path, d.name]);
    state.set(d, "done");
  };
  for (const d of dependents) visit(d, []);
}

/** "config-map" → "ConfigMap": a dependent's name as the start of a condition reason. */
export function reasonName(name: string): string {
  return name
    .split("-")
    .filter(Boolean)
    .map((s) => s[0]?.toUpperCase() + s.slice(1))
    .join("");
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The Ready, Progressing and Degraded conditions a workflow result stands for (see the module comment). */
export function workflowConditions(result: WorkflowResult, observedGeneration?: number): ConditionInput[] {
  const rs = result.dependents;
  const failed = rs.filter((r) => r.state === "failed");
  const notReady = rs.filter((r) => r.state === "notReady");
  const waiting = rs.filter((r) => r.state === "waiting");
  const blocked = rs.filter((r) => r.state === "blocked");
  const gen = observedGeneration === undefined ? {} : { observedGeneration };
  const failedMessage = failed.map((r) => `${r.name} failed: ${describeError(r.error)}`).join("; ");
  const waitMessage = [
    ...notReady.map((r) => `${r.name} is not ready`),
    ...waiting.map((r) => `${r.name} waits for ${r.dependency}`),
    ...blocked.map((r) => `${r.name} is blocked by ${r.dependency}`),
  ].join("; ");
  const firstFailed = failed[0];
  const firstNotReady = notReady[0];
  const ready: ConditionInput = firstFailed
    ? {
        type: "Ready",
        status: "False",
        reason: `${reasonName(firstFailed.name)}Failed`,
        message: failedMessage,
      }
    : firstNotReady
      ? {
          type: "Ready",
          status: "False",
          reason: `${reasonName(firstNotReady.name)}NotReady`,
          message: waitMessage,
        }
      : { type: "Ready", status: "True", reason: "DependentsReady", message: "every dependent is ready" };
  const progressing: ConditionInput = firstNotReady
    ? {
        type: "Progressing",
        status: "True",
        reason: `${reasonName(firstNotReady.name)}NotReady`,
        message: waitMessage,
      }
    : firstFailed
      ? {
          type: "Progressing",
          status: "False",
          reason: `${reasonName(firstFailed.name)}Failed`,
          message: failedMessage,
        }
      : {
          type: "Progressing",
          status: "False",
          reason: "DependentsReady",
          message: "every dependent is ready",
        };
  const degraded: ConditionInput = firstFailed
    ? {
        type: "Degraded",
        status: "True",
        reason: `${reasonName(firstFailed.name)}Failed`,
        message: failedMessage,
      }
    : { type: "Degraded", status: "False", reason: "AsExpected", message: "no dependent failed" };
  return [ready, progressing, degraded].map((c) => ({ ...c, ...gen }));
}

/**
 * Sets the workflow's Ready, Progressing and Degraded conditions in `conditions` (in place; other
 * conditions untouched) and says whether any changed: write status only then.
 */
export function setWorkflowConditions(
  conditions: Condition[],
  result: WorkflowResult,
  observedGeneration?: number,
): boolean {
  let changed = false;
  for (const c of workflowConditions(result, observedGeneration)) {
    if (setStatusCondition(conditions, c)) changed = true;
  }
  return changed;
}
