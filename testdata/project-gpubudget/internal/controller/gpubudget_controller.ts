/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import {
  type Cache,
  type Client,
  type Condition,
  type ConditionInput,
  controllerManagedBy,
  type EventRecorder,
  enqueueRequestsFromMapFunc,
  findStatusCondition,
  generationChangedPredicate,
  isNotFound,
  type Logger,
  type Manager,
  mergePatch,
  Namespace,
  or,
  Pod,
  type Predicate,
  type Reader,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type ResourceVersionWaiter,
  type Result,
  removeStatusCondition,
  retryOnConflict,
  setStatusCondition,
  throttled,
} from "@kbts/runtime";
import type { GPUBudget, GPUBudgetStatus } from "../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../api/v1alpha1/zz_generated.kinds.js";
import {
  BUDGET_COHORT_INDEX,
  borrowedMilli,
  COHORT_CONDITION,
  cohortMember,
  cohortNotShared,
  lentMilli,
  recentUsageAt,
  withoutCohort,
} from "../cohort/cohort.js";
import {
  budgetClaimUsage,
  describeBudget,
  extendedResourceClaimOwner,
  type ResourceClaim,
  ResourceClaimKind,
} from "../gpu/claims.js";
import {
  type BudgetUsage,
  budgetResources,
  budgetUsage,
  type CountRule,
  DEFAULT_RESOURCE_NAME,
  formatGPUs,
  podMilliGPUs,
  selectorMatches,
} from "../gpu/podgpus.js";
import { BudgetStatusWrites } from "../gpu/status_writes.js";
import {
  type CacheWaiter,
  setFullAtGeneration,
  setSettledMarks,
  settledMarks,
  UsageTracker,
} from "../gpu/usage.js";
import {
  GPU_HOURS_CONDITION,
  GPU_HOURS_FINALIZER,
  type GPUHoursState,
  gpuHoursCondition,
  gpuHoursState,
  type Ledger,
  nextCrossingAt,
  syncGPUHourFinalizers,
  updateLedger,
} from "../ledger/ledger.js";
import {
  type BudgetMetrics,
  budgetMetrics,
  cohortMetrics,
  gpuHoursMetrics,
  queueMetrics,
} from "../metrics/metrics.js";
import { isQueueBudget, isQueued, QueueReleaser } from "../queue/queue.js";
import { queryUtilization, type UtilizationOptions } from "../utilization/prometheus.js";

export { DEFAULT_RESOURCE_NAME };

/** Field index on GPUBudget: the budgets of a namespace, so a Pod event never lists every budget. */
export const BUDGET_NAMESPACE_INDEX = "gpubudget.namespace";

/**
 * The namespace label the Pod webhook's namespaceSelector requires
 * (config/webhook/pod_namespace_selector_patch.yaml). Only a Deny budget can refuse a pod, so only
 * namespaces that hold one need their pods checked at admission: the operator sets the label (value
 * Deny) on those and removes it elsewhere, and kube-apiserver calls the webhook for nothing else. A
 * Report budget costs no admission call, whatever the pod rate. Anyone allowed to edit a namespace's
 * labels can therefore switch its enforcement off, as with Pod Security Admission's labels; the
 * operator puts the label back on the next Namespace event, and the budget's Enforcing condition says
 * False meanwhile.
 */
export const ENFORCEMENT_LABEL = "capacity.lab.example.com/gpubudget-enforcement";

/**
 * The namespace label ("true") that binds the budget-full admission policy
 * (config/webhook/budget_full_policy.yaml) to a namespace: set while one of its Deny budgets is full by
 * its status, as the policy judges it. Evaluating the policy costs kube-apiserver a conversion of the pod
 * for CEL: in a burst of bench/gpubudget --vs-quota, with every pod of a Deny namespace evaluated, it took
 * 14 % of kube-apiserver's CPU (its CPU profile), more than the webhook calls (5 %). So it is evaluated
 * only where it can refuse. It is a hint, never a bypass: without it a pod goes to the webhook, which
 * decides; with it, the policy still refuses only what the budget's status says is full. So a tenant who
 * edits it only changes where its refusals cost CPU. It is removed FULL_LABEL_HOLD_MS after the budget
 * last had room, so a budget at its cap under churn does not rewrite its namespace at every pod.
 */
export const FULL_LABEL = "capacity.lab.example.com/gpubudget-full";
export const FULL_LABEL_HOLD_MS = 30_000;

/**
 * Sets FULL_LABEL on a namespace now. The webhook calls it when its reservation fills a budget: in a burst
 * every namespace fills at about the same moment, and waiting for the namespace controller's patches, one
 * at a time behind the pod events, let half the rest of the burst reach the webhook (bench/gpubudget
 * --vs-quota). The controller still owns the label, and removes it once the budget has had room for
 * FULL_LABEL_HOLD_MS.
 */
export async function labelFull(client: Client, namespace: string): Promise<void> {
  await client.patch(
    Namespace,
    { name: namespace },
    mergePatch({ metadata: { labels: { [FULL_LABEL]: "true" } } }),
  );
}

export interface GPUBudgetReconcilerOptions {
  client: Client;
  /** Where to read a budget again after a write conflict; the API server (mgr.getAPIReader()) is fresh. */
  apiReader?: Reader;
  recorder: EventRecorder;
  metrics?: BudgetMetrics;
  /** With a Prometheus URL, status also reports utilization, refreshed every intervalMs. */
  utilization?: UtilizationOptions & { intervalMs: number };
  /** The incremental usage the webhook reads: a reconcile reports it, checked against a recount (drift). */
  tracker?: UsageTracker;
  /** How often a budget's usage is recounted from the cache when a tracker keeps it (default 10 s; 0: every reconcile). */
  recountIntervalMs?: number;
  /** Releases the pods waiting under Queue budgets (internal/queue); without it, none is released. */
  releaser?: QueueReleaser;
  /** The manager is sharded (--shard-ring): this replica sees only its own namespaces' budgets. */
  sharded?: boolean;
  /** This replica's writers of budget status, taking turns with the webhook's (statusWritesFor(mgr)). */
  writes?: BudgetStatusWrites<GPUBudget>;
}

// Only what the code uses (`kbts manifests --check-rbac`): it never writes a budget but its status,
// and owns nothing, so no gpubudgets/finalizers (see below); events are core/v1 Events.
// +kubebuilder:rbac:groups=capacity.lab.example.com,resources=gpubudgets,verbs=get;list;watch
// +kubebuilder:rbac:groups=capacity.lab.example.com,resources=gpubudgets/status,verbs=update
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch;patch
// A Queue budget's release removes its scheduling gate from a pod, and a GPU-hour budget puts its
// finalizer on the pods it has yet to charge (internal/ledger): the guard keeps the patch to the spec
// (which kbts cannot narrow further; a pod's spec is immutable but for gates, images and tolerations)
// and the finalizers.
// +kbts:guard:groups="",resources=pods,verbs=patch,fields=spec;metadata.finalizers
// A waiting pod's Queued condition says where it stands in line (internal/queue).
// +kubebuilder:rbac:groups="",resources=pods/status,verbs=patch
// A Job's waiting pods are one gang of its parallelism (internal/queue).
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get
// Reclaim evicts pods running on GPUs a cohort lent (internal/cohort), through the Eviction API so that
// PodDisruptionBudgets hold.
// +kubebuilder:rbac:groups="",resources=pods/eviction,verbs=create
// ResourceClaims are counted (spec.deviceClasses). ResourceClaimTemplates are not read: a template's
// claims are counted, and checked by the webhook, when the resourceclaim controller creates them.
// +kubebuilder:rbac:groups=resource.k8s.io,resources=resourceclaims,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=namespaces,verbs=get;list;watch;patch
// RBAC cannot say "only these labels": the guard lets the manager's ServiceAccount change nothing else of
// a namespace (not Pod Security Admission's labels) than its enforcement and full labels, enforced by
// config/rbac/write_guards.yaml.
// +kbts:guard:groups="",resources=namespaces,verbs=patch,fields=metadata.labels['capacity.lab.example.com/gpubudget-enforcement'];metadata.labels['capacity.lab.example.com/gpubudget-full']
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch

/**
 * Keeps each GPUBudget's status equal to what the pods of its namespace hold.
 *
 * No finalizer, on purpose: a budget owns nothing outside the cluster (nor inside it), so there is
 * nothing to clean up before it goes. The only per-budget state, its metric series, is dropped when a
 * reconcile finds the budget gone. A finalizer here would only add a way to wedge namespace deletion.
 */
export class GPUBudgetReconciler implements Reconciler {
  private readonly metrics: BudgetMetrics;
  /** When each budget's usage was last recounted from the cache ("namespace/name" -> ms). */
  private readonly recountedAt = new Map<string, number>();

  private readonly writes: BudgetStatusWrites<GPUBudget>;

  constructor(private readonly options: GPUBudgetReconcilerOptions) {
    this.metrics = options.metrics ?? budgetMetrics;
    this.writes = options.writes ?? new BudgetStatusWrites<GPUBudget>();
  }

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const { client } = this.options;
    const namespace = request.namespace ?? "";
    let budget: GPUBudget;
    try {
      budget = await client.get(GPUBudgetKind, { namespace, name: request.name });
    } catch (err) {
      if (isNotFound(err)) {
        // Deleted: nothing to clean up but our own series, and the GPU-hour finalizers it alone wanted.
        this.metrics.forget(namespace, request.name);
        this.recountedAt.delete(`${namespace}/${request.name}`);
        this.writes.forget(`${namespace}/${request.name}`);
        await this.syncFinalizers(namespace, await client.list(Pod, { namespace }));
        return {};
      }
      throw err;
    }
    // Sharded, a replica sees only its own namespaces' budgets and pods: a cohort spanning shards cannot
    // be decided anywhere, so the budget is decided alone and its Cohort condition says so.
    const unsharedCohort = this.options.sharded ? budget.spec.cohort : undefined;
    if (unsharedCohort) budget = withoutCohort(budget);

    const resources = budgetResources(budget.spec);
    const unit = describeBudget(budget.spec);
    const now = Date.now();
    // Read only, never written back: the cache's frozen pods, not a copy of each. On every pod event
    // of a namespace with thousands of pods, copying them was most of the operator's CPU and held up
    // its webhook (bench/gpubudget --vs-quota, steady phase).
    const pods = await client.list(Pod, { namespace, unsafeDisableDeepCopy: true });
    // Claims count once each, in their own namespace, while they exist (ResourceQuota's rule, claims.ts).
    const claims = await client.list(ResourceClaimKind, { namespace, unsafeDisableDeepCopy: true });
    const claimUsage = budgetClaimUsage(claims, pods, {
      deviceClasses: budget.spec.deviceClasses ?? [],
      resources,
      selector: budget.spec.selector,
    });
    const usage = this.usage(
      budget,
      pods,
      { resources, selector: budget.spec.selector },
      claimUsage.allocatedMilli,
      now,
      context,
    );
    const max = budget.spec.maxGPUs;
    const allocatedGPUs = Math.ceil(usage.allocatedMilli / 1000);
    // A Queue budget of a cohort may hold more than maxGPUs, borrowed (internal/cohort): that is not exceeded.
    const cohort = await this.cohortFigures(budget, usage.allocatedMilli);
    const isExceeded = usage.allocatedMilli > (max + (cohort?.allowance ?? 0)) * 1000;
    const message = `${formatGPUs(usage.allocatedMilli)}/${max} GPUs${cohort?.borrowedMilli ? ` (${formatGPUs(cohort.borrowedMilli)} borrowed from cohort ${budget.spec.cohort})` : ""}`;

    const utilization = await this.utilization(namespace, usage.podNames, context);
    const enforcing =
      isDeny(budget) || isQueueBudget(budget) ? await this.namespaceEnforced(namespace, budget) : undefined;
    // spec.gpuHours: the ledger as it stands now (internal/ledger), written with the rest of the status.
    const hours = budget.spec.gpuHours;
    const gone = hours ? await this.goneRecordedPods(namespace, budget, pods) : new Set<string>();
    const ledgerFrom = (previous: GPUBudgetStatus["gpuHours"]): Ledger | undefined =>
      hours &&
      updateLedger({
        spec: hours,
        previous,
        pods,
        milliGPUs: (pod) =>
          selectorMatches(budget.spec.selector, pod.metadata?.labels) ? podMilliGPUs(pod, resources) : 0,
        gone,
        now,
      });
    let ledger = ledgerFrom(budget.status?.gpuHours);
    const warningPercent = hours?.warningPercent ?? 80;
    const hoursBefore = findStatusCondition(budget.status?.conditions, GPU_HOURS_CONDITION)?.reason as
      | GPUHoursState
      | undefined;
    // A Queue budget releases what fits, from a fresh read of the namespace's pods (internal/queue), and
    // only while the cache shows a pod waiting: a pod gated since is released when its event arrives.
    const queue = !isQueueBudget(budget)
      ? undefined
      : this.options.releaser && pods.some(isQueued)
        ? (
            await this.options.releaser.release(namespace, await this.namespaceBudgets(namespace), {
              [request.name]: ledger !== undefined && gpuHoursState(ledger, warningPercent) === "Spent",
            })
          ).get(request.name)
        : { queuedMilli: 0, queuedPods: 0 };
    const wasExceeded = isBudgetExceeded(budget.status?.conditions);

    let nextExpiry = Number.POSITIVE_INFINITY;
    let recentMilliGPUSeconds = 0;
    const written = await this.writeStatus(budget, (status, generation) => {
      // A cohort member's recent GPU use (internal/cohort recentUsageAt): the time since `at` is folded in
      // only when what it holds changes, so status.allocatedMilliGPUs always says what was held since
      // then, and an unchanged budget is not rewritten (its peers would wake) just because time passed.
      if (budget.spec.cohort) {
        if (!status.recentUsage || status.allocatedMilliGPUs !== usage.allocatedMilli) {
          const folded = recentUsageAt(status.recentUsage, status.allocatedMilliGPUs ?? 0, now);
          status.recentUsage = { milliGPUSeconds: Math.round(folded), at: new Date(now).toISOString() };
        }
        recentMilliGPUSeconds = recentUsageAt(status.recentUsage, usage.allocatedMilli, now);
      } else {
        delete status.recentUsage;
      }
      status.allocatedGPUs = allocatedGPUs;
      status.allocatedMilliGPUs = usage.allocatedMilli;
      status.podCount = usage.podCount;
      status.observedGeneration = generation;
      if (claimUsage.claimCount > 0) status.claimCount = claimUsage.claimCount;
      else delete status.claimCount;
      if (claimUsage.uncountedClaims > 0) status.uncountedClaims = claimUsage.uncountedClaims;
      else delete status.uncountedClaims;
      if (queue) {
        status.queuedGPUs = Math.ceil(queue.queuedMilli / 1000);
        status.queuedPods = queue.queuedPods;
      } else {
        delete status.queuedGPUs;
        delete status.queuedPods;
      }
      if (cohort) {
        status.borrowedGPUs = Math.ceil(cohort.borrowedMilli / 1000);
        status.lentGPUs = Math.ceil(cohort.lentMilli / 1000);
      } else {
        delete status.borrowedGPUs;
        delete status.lentGPUs;
      }
      // Expired reservations go, and so do those whose pods or claims this replica's caches have seen
      // (released up to the settled marks); the others stay (see internal/webhook/v1/reservations.ts).
      const tracker = this.options.tracker;
      const reservations = status.reservations ?? [];
      const { kept: live, settled } = tracker
        ? tracker.settle(reservations, settledMarks(status), now)
        : { kept: reservations.filter((r) => Date.parse(r.expiresAt) > now), settled: settledMarks(status) };
      for (const r of live) nextExpiry = Math.min(nextExpiry, Date.parse(r.expiresAt));
      if (live.length > 0) status.reservations = live;
      else delete status.reservations;
      setSettledMarks(status, settled);
      // Whether it is full counting the reservations, as the webhook's writes say too (reservations.ts):
      // for the spec counted here (a newer generation is reconciled next), and removed once a pod
      // finishes or a reservation expires (nextExpiry). Without a tracker nothing tells seen pods apart.
      const unseen = tracker?.unseen(live);
      setFullAtGeneration(
        status,
        budget,
        unseen && usage.allocatedMilli + unseen.reservedMilli,
        (unseen?.grants.length ?? 0) > 0,
      );
      if (utilization === "unavailable") {
        delete status.averageUtilization;
        delete status.idleGPUs;
      } else if (utilization !== "failed") {
        status.averageUtilization = utilization.averageUtilization;
        status.idleGPUs = utilization.idleGPUs;
      } // on a failed query keep the last figures rather than flapping the fields
      status.conditions ??= [];
      setStatusCondition(status.conditions, {
        type: "Ready",
        status: isExceeded ? "False" : "True",
        reason: isExceeded ? "BudgetExceeded" : "WithinBudget",
        message,
        observedGeneration: generation,
      });
      if (unsharedCohort) setStatusCondition(status.conditions, cohortNotShared(unsharedCohort, generation));
      else removeStatusCondition(status.conditions, COHORT_CONDITION);
      if (enforcing === undefined) removeStatusCondition(status.conditions, "Enforcing");
      else
        setStatusCondition(
          status.conditions,
          enforcingCondition(namespace, enforcing, generation, isQueueBudget(budget)),
        );
      // Recomputed from the status being written (a conflict re-reads it): a pod another leader charged is
      // in its recordedPods, so it is not charged again.
      ledger = ledgerFrom(status.gpuHours);
      if (ledger && hours) {
        status.gpuHours = ledger.status;
        setStatusCondition(status.conditions, gpuHoursCondition(ledger, hours, generation));
      } else {
        delete status.gpuHours;
        removeStatusCondition(status.conditions, GPU_HOURS_CONDITION);
      }
    });
    // Only now that the ledger is written may a charged pod's finalizer go.
    if (ledger || pods.some((p) => p.metadata?.finalizers?.includes(GPU_HOURS_FINALIZER))) {
      await this.syncFinalizers(namespace, pods, {
        ...budget,
        status: { ...budget.status, gpuHours: ledger?.status },
      });
    }

    this.metrics.set(namespace, request.name, {
      allocated: usage.allocatedMilli / 1000,
      max,
      exceeded: isExceeded,
    });
    if (queue) queueMetrics.set(namespace, request.name, queue);
    gpuHoursMetrics.set(namespace, request.name, ledger);
    const hoursNow = ledger && gpuHoursState(ledger, warningPercent);
    if (ledger && hoursNow !== hoursBefore && (hoursNow !== "WithinLimit" || hoursBefore !== undefined)) {
      const used = `${ledger.status.usedGPUHours}/${hours?.limit} GPU-hours used in the window (${hours?.window}, since ${ledger.status.windowStart})`;
      if (hoursNow === "Spent")
        this.options.recorder.event(budget, "Warning", "GPUHoursSpent", `${used}: ${spentAction(budget)}`);
      else if (hoursNow === "NearLimit" && hoursBefore !== "Spent")
        this.options.recorder.event(
          budget,
          "Warning",
          "GPUHoursWarning",
          `${used}, past the warning at ${warningPercent}%`,
        );
      else this.options.recorder.event(budget, "Normal", "GPUHoursAvailable", used);
    }
    if (cohort)
      cohortMetrics.set(
        namespace,
        request.name,
        cohort.borrowedMilli / 1000,
        recentMilliGPUSeconds / 3_600_000,
      );
    else cohortMetrics.forget(namespace, request.name);
    if (written) {
      context.log.info(
        { allocatedGPUs, maxGPUs: max, pods: usage.podCount, claims: claimUsage.claimCount },
        "status updated",
      );
      if (isExceeded && !wasExceeded) {
        this.options.recorder.event(
          budget,
          "Warning",
          "BudgetExceeded",
          `${formatGPUs(usage.allocatedMilli)}/${max} ${unit} allocated in ${namespace}`,
        );
      } else if (!isExceeded && wasExceeded) {
        this.options.recorder.event(
          budget,
          "Normal",
          "WithinBudget",
          `${formatGPUs(usage.allocatedMilli)}/${max} ${unit} allocated in ${namespace}`,
        );
      }
    }
    // Come back when something changes with time alone: a terminating pod's grace runs out (it stops
    // counting at that moment), a reservation expires, utilization is due, or a borrowed pod has run its
    // minRuntime and may be reclaimed. With spec.gpuHours also when a period ends, when the running pods
    // cross the warning or the limit, and every minute while pods run, so usedGPUHours stays current.
    const hoursAt = ledger
      ? Math.min(ledger.nextChangeAt, nextCrossingAt(ledger, warningPercent, now))
      : Number.POSITIVE_INFINITY;
    const wakeAt = Math.min(
      usage.nextChangeAt,
      nextExpiry,
      hoursAt,
      queue?.retryAt ?? Number.POSITIVE_INFINITY,
    );
    const candidates = [
      this.options.utilization?.intervalMs,
      ledger && ledger.runningMilliGPUs > 0 ? GPU_HOURS_REFRESH_MS : undefined,
      Number.isFinite(wakeAt) ? Math.max(1, wakeAt - Date.now() + 50) : undefined,
    ];
    const requeueAfter = Math.min(...candidates.filter((c): c is number => c !== undefined));
    return Number.isFinite(requeueAfter) ? { requeueAfter } : {};
  }

  /**
   * The budget's usage. The tracker's incremental count (the one the webhook admits by) is reported,
   * and checked against a recount of the namespace's pods from the cache every recountIntervalMs: a
   * recount on each pod event cost 2-3 ms of the event loop per event at 3,000 pods, 11% of a core in
   * steady churn, and held up the webhook's answers meanwhile (bench/gpubudget --vs-quota, steady
   * phase). The recount is the truth: a difference is a bug in the tracker, reported as drift, and the
   * recount's figure is what the status says. Without a tracker, or with utilization (which needs the
   * counted pods' names), every reconcile recounts.
   */
  private usage(
    budget: GPUBudget,
    pods: readonly Pod[],
    rule: CountRule,
    claimMilli: number,
    now: number,
    context: ReconcileContext,
  ): BudgetUsage {
    const namespace = budget.metadata?.namespace ?? "";
    const name = budget.metadata?.name ?? "";
    const key = `${namespace}/${name}`;
    const tracked = this.options.tracker?.usage(namespace, name, now);
    const last = this.recountedAt.get(key);
    if (
      tracked &&
      !this.options.utilization &&
      last !== undefined &&
      now - last < (this.options.recountIntervalMs ?? RECOUNT_INTERVAL_MS)
    ) {
      return {
        allocatedMilli: tracked.allocatedMilli,
        podCount: tracked.podCount,
        podNames: [],
        nextChangeAt: tracked.nextChangeAt,
      };
    }
    this.recountedAt.set(key, now);
    // Pod names only when utilization needs them: a reconcile does no work for a feature that is off.
    const usage = budgetUsage(pods, rule, { now, podNames: !!this.options.utilization });
    usage.allocatedMilli += claimMilli;
    if (tracked && tracked.allocatedMilli !== usage.allocatedMilli) {
      this.metrics.drift(namespace, name);
      context.log.error(
        { tracked: tracked.allocatedMilli, recounted: usage.allocatedMilli },
        "incremental GPU usage drifted from the recount",
      );
    }
    return usage;
  }

  /** The namespace's budgets, each as this replica decides it (without its cohort when sharded). */
  private async namespaceBudgets(namespace: string): Promise<GPUBudget[]> {
    const budgets = await this.options.client.list(GPUBudgetKind, { namespace });
    return this.options.sharded ? budgets.map(withoutCohort) : budgets;
  }

  /**
   * Applies `mutate` to a copy of the budget's status and writes it through the status subresource,
   * only when something changed (an unchanged status is never rewritten, so no self-triggered churn).
   * Comparing with the cached budget can skip a write against a stale copy only while a write the
   * cache has not seen is on its way to it: our own answered writes are read back (the manager's
   * client reads its own writes), and any other (one of ours whose answer was lost when the API
   * server died after committing it, a previous leader's late write after a failover, a hand edit)
   * reaches the cache as an update event that reconciles the budget again (countedStatusChanged).
   * It starts from the newest version this replica knows (the cache's, or the one the webhook just
   * wrote), taking turns with the webhook's writes (gpu/status_writes.ts). On a conflict the budget is
   * read again and `mutate` re-applied. Returns whether it wrote.
   */
  private async writeStatus(
    budget: GPUBudget,
    mutate: (status: GPUBudgetStatus, generation: number) => void,
  ): Promise<boolean> {
    const { client } = this.options;
    const reader = this.options.apiReader ?? client;
    const key = { namespace: budget.metadata?.namespace ?? "", name: budget.metadata?.name ?? "" };
    const id = `${key.namespace}/${key.name}`;
    // After the webhook's write in flight, from the version it returned (status_writes.ts).
    return this.writes.exclusive(id, async () => {
      let current = this.writes.newest(id, budget);
      let first = true;
      let wrote = false;
      await retryOnConflict(async () => {
        if (!first) {
          current = await reader.get(GPUBudgetKind, key);
          this.writes.record(id, current);
        }
        first = false;
        const status: GPUBudgetStatus = structuredClone(current.status ?? {});
        mutate(status, current.metadata?.generation ?? 0);
        if (sameJSON(status, current.status ?? {})) return;
        this.writes.record(id, await client.status().update(GPUBudgetKind, { ...current, status }));
        wrote = true;
      });
      return wrote;
    });
  }

  /**
   * A cohort member's borrowed and lent GPUs, and how far above maxGPUs it may go (borrowingLimit, or
   * without limit; 0 for Deny and Report budgets, which never borrow). The peers' figures are their
   * statuses in the cache: lentGPUs is information, the releases are decided from a fresh LIST.
   */
  private async cohortFigures(
    budget: GPUBudget,
    allocatedMilli: number,
  ): Promise<{ borrowedMilli: number; lentMilli: number; allowance: number } | undefined> {
    const name = budget.spec.cohort;
    if (!name) return undefined;
    const peers = await this.options.client.list(GPUBudgetKind, {
      matchingFields: { [BUDGET_COHORT_INDEX]: name },
    });
    const self = cohortMember(budget, { allocatedMilli });
    const members = [
      self,
      ...peers
        .filter((p) => p.metadata?.uid !== budget.metadata?.uid)
        .map((p) => cohortMember(p, { allocatedMilli: p.status?.allocatedMilliGPUs ?? 0 })),
    ];
    return {
      borrowedMilli: self.borrows ? borrowedMilli(self) : 0,
      lentMilli: lentMilli(members, self.key),
      allowance: self.borrows ? (budget.spec.borrowingLimit ?? Number.POSITIVE_INFINITY) : 0,
    };
  }

  /**
   * Whether the namespace's ENFORCEMENT_LABEL (in the cache) sends its pods to the webhook this budget
   * needs: the Pod validator for a Deny budget (label Deny or DenyAndQueue), the Pod defaulter for a Queue
   * budget (Queue or DenyAndQueue).
   */
  private async namespaceEnforced(name: string, budget: GPUBudget): Promise<boolean> {
    try {
      const ns = await this.options.client.get(Namespace, { name });
      const label = ns.metadata?.labels?.[ENFORCEMENT_LABEL];
      return isQueueBudget(budget)
        ? label === "Queue" || label === "DenyAndQueue"
        : label === "Deny" || label === "DenyAndQueue";
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  /**
   * The recorded pods the API server no longer has: they leave recordedPods. The cache names the
   * candidates; a fresh read confirms them, so a pod a lagging cache does not show yet is never dropped
   * (and then charged again).
   */
  private async goneRecordedPods(
    namespace: string,
    budget: GPUBudget,
    pods: readonly Pod[],
  ): Promise<Set<string>> {
    const cached = new Set(pods.map((p) => p.metadata?.uid));
    const missing = (budget.status?.gpuHours?.recordedPods ?? []).filter((uid) => !cached.has(uid));
    if (missing.length === 0) return new Set();
    const reader = this.options.apiReader ?? this.options.client;
    const fresh = new Set((await reader.list(Pod, { namespace })).map((p) => p.metadata?.uid));
    return new Set(missing.filter((uid) => !fresh.has(uid)));
  }

  /** GPU_HOURS_FINALIZER on exactly the pods a GPU-hour budget of the namespace has yet to charge. */
  private async syncFinalizers(namespace: string, pods: readonly Pod[], written?: GPUBudget): Promise<void> {
    const budgets = await this.options.client.list(GPUBudgetKind, { namespace });
    const name = written?.metadata?.name;
    await syncGPUHourFinalizers(
      this.options.client,
      pods,
      budgets.map((b) => (written && b.metadata?.name === name ? written : b)),
    );
  }

  private async utilization(
    namespace: string,
    pods: string[],
    context: ReconcileContext,
  ): Promise<"unavailable" | "failed" | { averageUtilization: number; idleGPUs: number }> {
    const options = this.options.utilization;
    if (!options) return "unavailable";
    try {
      const u = await queryUtilization(options, namespace, pods, context.signal);
      return u ?? "unavailable";
    } catch (err) {
      // Utilization is extra information: a Prometheus outage must not stop budgets being counted.
      context.log.error({ err }, "utilization query failed; keeping the last figures");
      return "failed";
    }
  }
}

/** How often a budget with running pods under spec.gpuHours rewrites usedGPUHours. */
const GPU_HOURS_REFRESH_MS = 60_000;
/** How often a tracked budget's usage is recounted from the cache to check the tracker (see usage()). */
const RECOUNT_INTERVAL_MS = 10_000;
/**
 * How often its pods' and claims' events may reconcile a budget: at once while a burst of 10 lasts, then
 * 10 a second, the events in between folded into the next one (throttled). A namespace whose pods change
 * up to 10 times a second has its status as fast as without the throttle; under heavier churn the status
 * is at most 100 ms behind. Without it a namespace creating and deleting 20 pods a second rewrote its
 * budget 60 times a second, against the webhook's reservation writes (bench/gpubudget --vs-quota, steady
 * phase: 1,813 status writes and 52 conflicts in 30 s; 144 with this throttle). At 5 a second (60 writes
 * there) a namespace changing 7 times a second waited up to 200 ms for its status (bench/gpubudget
 * --compare-go: pod change -> status p99 72-86 ms against the Go port's 20-22; 21 ms at 10 a second).
 */
const POD_EVENTS_THROTTLE = { perSecond: 10, burst: 10 };

/** What a spent GPU-hour budget does, by its enforcement. */
function spentAction(budget: GPUBudget): string {
  const enforcement = budget.spec.enforcement ?? "Report";
  if (enforcement === "Deny") return "new pods are refused until the window moves";
  if (enforcement === "Queue") return "new pods wait in line until the window moves";
  return "reported only (enforcement is Report)";
}

function isDeny(budget: GPUBudget): boolean {
  return budget.spec?.enforcement === "Deny";
}

/** Whether the budget-full policy refuses a GPU pod the budget selects: its `full` variable, in TypeScript. */
export function fullByStatus(budget: GPUBudget): boolean {
  if (!isDeny(budget)) return false;
  const status = budget.status;
  const counted =
    status?.allocatedMilliGPUs !== undefined && status.allocatedMilliGPUs >= budget.spec.maxGPUs * 1000;
  const marked =
    status?.fullAtGeneration !== undefined && status.fullAtGeneration === budget.metadata?.generation;
  return counted || marked;
}

/**
 * A Deny budget's Enforcing condition: True only once its namespace carries ENFORCEMENT_LABEL in the
 * operator's cache, so "kubectl wait --for=condition=Enforcing" is how to know pods are being checked.
 * Between creating a Deny budget (or switching one to Deny) and that moment, pods are admitted
 * unchecked: the condition reports that window instead of hiding it. Report budgets have no such
 * condition (they never refuse).
 */
function enforcingCondition(
  namespace: string,
  enforced: boolean,
  generation: number,
  queue: boolean,
): ConditionInput {
  return enforced
    ? {
        type: "Enforcing",
        status: "True",
        reason: "NamespaceLabelled",
        message: queue
          ? `the Pod webhook gates the budget's pods in namespace ${namespace} (label ${ENFORCEMENT_LABEL})`
          : `the Pod webhook checks pods in namespace ${namespace} (label ${ENFORCEMENT_LABEL})`,
        observedGeneration: generation,
      }
    : {
        type: "Enforcing",
        status: "False",
        reason: "NamespaceNotLabelled",
        message: queue
          ? `namespace ${namespace} does not carry ${ENFORCEMENT_LABEL}=Queue yet: until it does, its pods are not sent to the Pod webhook and none is queued`
          : `namespace ${namespace} does not carry ${ENFORCEMENT_LABEL}=Deny yet: until it does, its pods are not sent to the Pod webhook and none is refused`,
        observedGeneration: generation,
      };
}

function isBudgetExceeded(conditions: Condition[] | undefined): boolean {
  const ready = findStatusCondition(conditions, "Ready");
  return ready?.status === "False" && ready.reason === "BudgetExceeded";
}

/** Structural equality of JSON values, ignoring key order. */
function sameJSON(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

const trackers = new WeakMap<Manager, Promise<UsageTracker>>();
const statusWrites = new WeakMap<Manager, BudgetStatusWrites<GPUBudget>>();

/** The manager's one BudgetStatusWrites, shared by the controller and the webhook (status_writes.ts). */
export function statusWritesFor(mgr: Manager): BudgetStatusWrites<GPUBudget> {
  let writes = statusWrites.get(mgr);
  if (!writes) {
    writes = new BudgetStatusWrites<GPUBudget>();
    statusWrites.set(mgr, writes);
  }
  return writes;
}

/**
 * The manager's one UsageTracker, shared by the controller and the webhook. Its Pod and GPUBudget
 * informers are created here, at set-up, so every replica starts them with its cache, leader or not,
 * and reports ready (/readyz cache-sync) only once they have synced: a follower serving the webhook
 * never builds its Pod cache on its first admission.
 */
export function usageTrackerFor(mgr: Manager): Promise<UsageTracker> {
  let tracker = trackers.get(mgr);
  if (!tracker) {
    tracker = (async () => {
      const cache = mgr.getCache();
      const t = new UsageTracker({
        waitForPods: cacheWaiter(cache, Pod),
        waitForClaims: cacheWaiter(cache, ResourceClaimKind),
      });
      const pods = await cache.getInformer(Pod);
      const budgets = await cache.getInformer(GPUBudgetKind);
      // resource.k8s.io/v1 is served from Kubernetes 1.34 (DRA GA): on an older cluster this informer
      // never syncs, and the manager is never ready.
      const claims = await cache.getInformer(ResourceClaimKind);
      t.attach(
        pods,
        budgets,
        (b: GPUBudget) => ({
          namespace: b.metadata?.namespace ?? "",
          name: b.metadata?.name ?? "",
          selector: b.spec?.selector,
          resources: budgetResources(b.spec ?? { maxGPUs: 0 }),
          deviceClasses: b.spec?.deviceClasses,
        }),
        claims,
      );
      return t;
    })();
    trackers.set(mgr, tracker);
  }
  return tracker;
}

/** The cache's "has the watch of `kind` passed this version" (InformerCache has it; see UsageTracker.waitForSettled). */
function cacheWaiter(cache: Cache, kind: typeof Pod | typeof ResourceClaimKind): CacheWaiter | undefined {
  const waiter = cache as Cache & Partial<ResourceVersionWaiter>;
  if (typeof waiter.waitForResourceVersion !== "function") return undefined;
  // An empty name matches no object, so this asks whether the namespace's watch passed the version.
  return (namespace, resourceVersion, timeoutMs) =>
    waiter.waitForResourceVersion?.(kind, { namespace, name: "" }, resourceVersion, timeoutMs) ??
    Promise.resolve(false);
}

export interface SetupGPUBudgetOptions {
  maxConcurrentReconciles?: number;
  utilization?: GPUBudgetReconcilerOptions["utilization"];
  logger?: Logger;
}

/**
 * Registers two controllers. "gpubudget": For(GPUBudget) when its spec or the counted part of its
 * status changes (countedStatusChanged; its own status writes do not wake it), Watches(Pod) and
 * Watches(ResourceClaim) mapped to the budgets of the object's namespace through a field index (a Pod
 * also to their cohort peers; both throttled under churn, POD_EVENTS_THROTTLE), Watches(GPUBudget)
 * mapped to the budget's cohort peers, and Watches(Namespace) when its enforcement label changes (the
 * Enforcing condition).
 * "gpubudget-namespace": keeps ENFORCEMENT_LABEL on the namespaces that hold a Deny or Queue budget.
 */
export async function setupGPUBudgetController(
  mgr: Manager,
  options: SetupGPUBudgetOptions = {},
): Promise<void> {
  // Sharded (--shard-ring), this replica caches only its namespaces' budgets, pods and claims: the ring's
  // key is the namespace, so a budget's pods are always on its replica. First, before any informer starts.
  const shard = mgr.getShard?.();
  if (shard) for (const kind of [GPUBudgetKind, Pod, ResourceClaimKind]) shard.shardKind(kind);
  const client = mgr.getClient();
  await mgr
    .getCache()
    .indexField(GPUBudgetKind, BUDGET_NAMESPACE_INDEX, (b) => [b.metadata?.namespace ?? ""]);
  await mgr
    .getCache()
    .indexField(GPUBudgetKind, BUDGET_COHORT_INDEX, (b) => (b.spec?.cohort ? [b.spec.cohort] : []));
  const reconciler = new GPUBudgetReconciler({
    client,
    apiReader: mgr.getAPIReader(),
    recorder: mgr.getEventRecorderFor("gpubudget-controller"),
    utilization: options.utilization,
    tracker: await usageTrackerFor(mgr),
    writes: statusWritesFor(mgr),
    releaser: new QueueReleaser({
      client,
      apiReader: mgr.getAPIReader(),
      recorder: mgr.getEventRecorderFor("gpubudget-queue"),
    }),
    sharded: shard !== undefined,
  });
  controllerManagedBy(mgr)
    .for(GPUBudgetKind, { predicates: [or(generationChangedPredicate(), countedStatusChanged)] })
    // Not the generation predicate here: a pod's phase (status) is exactly what changes what it holds.
    .watches(
      Pod,
      throttled(
        enqueueRequestsFromMapFunc((pod) => budgetsAndCohortPeers(client, pod.metadata?.namespace)),
        POD_EVENTS_THROTTLE,
      ),
      {
        predicates: [podCountMayChange],
      },
    )
    // A cohort member's spec or count changes what its peers may borrow, lend and reclaim.
    .watches(
      GPUBudgetKind,
      enqueueRequestsFromMapFunc((b: GPUBudget) => cohortPeers(client, b)),
      {
        predicates: [or(generationChangedPredicate(), countedStatusChanged)],
      },
    )
    // A claim's spec is immutable: only its creation, labels, owner pod and deletion change what it counts.
    .watches(
      ResourceClaimKind,
      throttled(
        enqueueRequestsFromMapFunc((c: ResourceClaim) => budgetsInNamespace(client, c.metadata?.namespace)),
        POD_EVENTS_THROTTLE,
      ),
      {
        predicates: [claimCountMayChange],
      },
    )
    .watches(
      Namespace,
      enqueueRequestsFromMapFunc((ns) => budgetsInNamespace(client, ns.metadata?.name)),
      {
        predicates: [{ ...enforcementLabelChanged, create: () => false }],
      },
    )
    .withOptions({
      maxConcurrentReconciles: options.maxConcurrentReconciles ?? 1,
      suppressOwnWrites: "status",
    })
    .named("gpubudget")
    .complete(reconciler);

  // Every namespace passes once at start-up (the informer's initial list), so a label left behind by
  // a budget deleted while the operator was down is removed too.
  controllerManagedBy(mgr)
    .for(Namespace, { predicates: [enforcementLabelChanged] })
    .watches(
      GPUBudgetKind,
      enqueueRequestsFromMapFunc((b) => [{ name: b.metadata?.namespace ?? "" }]),
      {
        predicates: [enforcementChanged],
      },
    )
    .named("gpubudget-namespace")
    .complete(new GPUBudgetNamespaceReconciler(client));
}

/**
 * Keeps ENFORCEMENT_LABEL=Deny on a namespace exactly while it holds a Deny budget, and FULL_LABEL while
 * one of them is full, read from the cache's budget index, with a merge patch of those labels (nothing
 * else on the namespace is touched).
 */
export class GPUBudgetNamespaceReconciler implements Reconciler {
  /** When each namespace carrying FULL_LABEL was first seen with room again (FULL_LABEL_HOLD_MS). */
  private readonly roomSince = new Map<string, number>();
  private readonly holdMs: number;
  private readonly now: () => number;

  constructor(
    private readonly client: Client,
    options: { holdMs?: number; now?: () => number } = {},
  ) {
    this.holdMs = options.holdMs ?? FULL_LABEL_HOLD_MS;
    this.now = options.now ?? Date.now;
  }

  async reconcile(request: Request): Promise<Result> {
    let ns: Namespace;
    try {
      ns = await this.client.get(Namespace, { name: request.name });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // A namespace deleted during its hold leaves nothing behind here.
      this.roomSince.delete(request.name);
      return {};
    }
    const budgets = await this.client.list(GPUBudgetKind, {
      matchingFields: { [BUDGET_NAMESPACE_INDEX]: request.name },
    });
    // The value picks the webhooks kube-apiserver calls (config/webhook/pod_*_patch.yaml): Deny the Pod
    // validator, Queue the defaulter that gates pods (and the validator, for pods that cannot be gated),
    // DenyAndQueue both. A namespace with only Deny budgets never pays for the defaulter's call.
    const deny = budgets.some(isDeny);
    const queue = budgets.some(isQueueBudget);
    const want = deny && queue ? "DenyAndQueue" : deny ? "Deny" : queue ? "Queue" : undefined;
    const { full, requeueAfter } = this.fullLabel(request.name, ns, budgets, deny);
    const labels = ns.metadata?.labels ?? {};
    if (labels[ENFORCEMENT_LABEL] === want && (labels[FULL_LABEL] === "true") === full)
      return requeueAfter ? { requeueAfter } : {};
    await this.client.patch(
      Namespace,
      { name: request.name },
      mergePatch({
        metadata: { labels: { [ENFORCEMENT_LABEL]: want ?? null, [FULL_LABEL]: full ? "true" : null } },
      }),
    );
    return requeueAfter ? { requeueAfter } : {};
  }

  /** Whether the namespace should carry FULL_LABEL now, and when to look again while it is held. */
  private fullLabel(
    name: string,
    ns: Namespace,
    budgets: GPUBudget[],
    deny: boolean,
  ): { full: boolean; requeueAfter?: number } {
    const full = budgets.some(fullByStatus);
    if (full || ns.metadata?.labels?.[FULL_LABEL] !== "true" || !deny) {
      this.roomSince.delete(name);
      return { full };
    }
    const now = this.now();
    const since = this.roomSince.get(name) ?? now;
    this.roomSince.set(name, since);
    const left = since + this.holdMs - now;
    if (left > 0) return { full: true, requeueAfter: left };
    this.roomSince.delete(name);
    return { full: false };
  }
}

/** Namespace events that can change enforcement: a new namespace (and the initial list), a label change. */
const enforcementLabelChanged: Predicate<Namespace> = {
  create: () => true,
  update: ({ objectOld, objectNew }) =>
    objectOld?.metadata?.labels?.[ENFORCEMENT_LABEL] !== objectNew?.metadata?.labels?.[ENFORCEMENT_LABEL],
  delete: () => false,
  generic: () => false,
};

/** Budget events that can change whether its namespace needs the labels. */
const enforcementChanged: Predicate<GPUBudget> = {
  create: () => true,
  update: ({ objectOld, objectNew }) =>
    objectOld?.spec?.enforcement !== objectNew?.spec?.enforcement ||
    (objectOld !== undefined &&
      objectNew !== undefined &&
      fullByStatus(objectOld) !== fullByStatus(objectNew)),
  delete: () => true,
  generic: () => false,
};

/**
 * Budget updates that change what the reconciler writes: its spec (generation), or the counted part
 * of its status written by someone else. Without the second, a wrong count stays. A write whose
 * answer was lost (the API server died after committing it), or a leader's last write landing after
 * its successor counted, is not yet in the cache when the next reconcile finds its own (correct)
 * figures there and skips its write; nothing wakes it again. The reconciler's own status writes are suppressed (suppressOwnWrites) and the webhook's
 * reservation writes change neither part, so neither wakes it.
 */
export const countedStatusChanged: Predicate<GPUBudget> = {
  create: () => false,
  update: ({ objectOld, objectNew }) =>
    canonical(countedStatus(objectOld)) !== canonical(countedStatus(objectNew)),
  delete: () => false,
  generic: () => false,
};

/** The status without the webhook's reservation fields. */
function countedStatus(
  budget: GPUBudget | undefined,
): Omit<GPUBudgetStatus, "reservations" | "settledPodResourceVersion" | "settledClaimResourceVersion"> {
  const {
    reservations: _reservations,
    settledPodResourceVersion: _pods,
    settledClaimResourceVersion: _claims,
    ...counted
  } = budget?.status ?? {};
  return counted;
}

/**
 * Drops pod updates that cannot change any budget (condition and IP updates, annotations...): only
 * the phase, labels (selectors), deletion and the containers' resources matter. Creates and deletes pass.
 */
export const podCountMayChange: Predicate<Pod> = {
  update({ objectOld: a, objectNew: b }) {
    if (!a || !b) return true;
    const counted = (p: Pod) =>
      JSON.stringify([
        p.status?.phase,
        p.status?.startTime, // spec.gpuHours meters from it
        p.status?.extendedResourceClaimStatus?.resourceClaimName, // which claim is the pod's own (gpu/claims.ts)
        p.metadata?.labels,
        p.metadata?.deletionTimestamp,
        p.metadata?.deletionGracePeriodSeconds,
        p.spec?.schedulingGates,
        p.spec?.containers?.map((c) => c.resources),
        p.spec?.initContainers?.map((c) => [c.resources, c.restartPolicy]),
      ]);
    return counted(a) !== counted(b);
  },
};

/**
 * Drops claim updates that cannot change any budget (allocation, reservedFor, devices status): only
 * labels, and the pod it says it was made for (gpu/claims.ts).
 */
export const claimCountMayChange: Predicate<ResourceClaim> = {
  update({ objectOld: a, objectNew: b }) {
    if (!a || !b) return true;
    const counted = (c: ResourceClaim) =>
      JSON.stringify([c.metadata?.labels ?? {}, extendedResourceClaimOwner(c)?.uid]);
    return counted(a) !== counted(b);
  },
};

/** The budgets of one namespace and the members of their cohorts, from the cache's field indexes. */
export async function budgetsAndCohortPeers(
  client: Client,
  namespace: string | undefined,
): Promise<Request[]> {
  if (!namespace) return [];
  // These map functions run for every pod event and only read names: the cache's own (frozen) copies
  // serve, without a deep copy of each budget (reservations and all) per event.
  const budgets = await client.list(GPUBudgetKind, {
    matchingFields: { [BUDGET_NAMESPACE_INDEX]: namespace },
    unsafeDisableDeepCopy: true,
  });
  const requests = new Map<string, Request>(
    budgets.map((b) => [`${namespace}/${b.metadata?.name}`, { namespace, name: b.metadata?.name ?? "" }]),
  );
  for (const b of budgets)
    for (const r of await cohortPeers(client, b)) requests.set(`${r.namespace}/${r.name}`, r);
  return [...requests.values()];
}

/** The other budgets of a budget's cohort (none without one). */
export async function cohortPeers(client: Client, budget: GPUBudget): Promise<Request[]> {
  const cohort = budget.spec?.cohort;
  if (!cohort) return [];
  const peers = await client.list(GPUBudgetKind, {
    matchingFields: { [BUDGET_COHORT_INDEX]: cohort },
    unsafeDisableDeepCopy: true,
  });
  return peers
    .filter((p) => p.metadata?.uid !== budget.metadata?.uid)
    .map((p) => ({ namespace: p.metadata?.namespace ?? "", name: p.metadata?.name ?? "" }));
}

/** The budgets of one namespace, from the cache's field index. */
export async function budgetsInNamespace(client: Client, namespace: string | undefined): Promise<Request[]> {
  if (!namespace) return [];
  const budgets = await client.list(GPUBudgetKind, {
    matchingFields: { [BUDGET_NAMESPACE_INDEX]: namespace },
    unsafeDisableDeepCopy: true,
  });
  return budgets.map((b) => ({ namespace, name: b.metadata?.name ?? "" }));
}
