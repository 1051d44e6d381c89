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
  type Client,
  type EventRecorder,
  isApiError,
  isInvalid,
  isNotFound,
  Job,
  jsonPatch,
  Pod,
  type Reader,
  type SubResourceClientWithCreate,
  strategicMergePatch,
} from "@kbts/runtime";
import type { GPUBudget } from "../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../api/v1alpha1/zz_generated.kinds.js";
import {
  BUDGET_COHORT_INDEX,
  type CohortMember,
  CohortState,
  cohortMember,
  memberKey,
  planReclaim,
  type RunningPod,
  recentUsageAt,
  startedAt,
} from "../cohort/cohort.js";
import {
  budgetResources,
  formatGPUs,
  isCounted,
  isQueued,
  podMilliGPUs,
  QUEUE_GATE,
  selectorMatches,
} from "../gpu/podgpus.js";
import { isGPUHoursSpent } from "../ledger/ledger.js";
import { cohortMetrics, queueMetrics } from "../metrics/metrics.js";

/**
 * enforcement: Queue. A pod a Queue budget counts is created with the scheduling gate QUEUE_GATE (the
 * Pod defaulter, internal/webhook/v1/pod_queue.ts), so it waits Pending and holds no GPU; the leader
 * removes the gates in order, as GPUs free up.
 *
 * Why every such pod is gated, not only the ones that would not fit (Kueue gates all of a workload's
 * pods too): a release is then decided by one process, the leader, and never races an admission made
 * by another replica at the same moment. A pod that fits is released within one reconcile.
 *
 * Why the release reads the namespace's pods from the API server, not the cache: a new leader's cache
 * may not yet show the releases its predecessor made just before it lost its Lease, and a release decided
 * on a stale count could overshoot the cap. A LIST is a quorum read that includes every release committed
 * so far; the old leader's later writes are refused by the leader-election write fence. One LIST per
 * release decision of a namespace, made only while the cache shows a pod waiting there.
 *
 * The order: higher pod priority (spec.priority, from its PriorityClass) first, then arrival (the time the
 * defaulter gated it, QUEUED_AT_ANNOTATION), then name. Strict: a unit that does not fit blocks the ones
 * behind it, so a large pod is not starved by smaller ones (Kueue's StrictFIFO).
 *
 * Gangs: pods sharing POD_GROUP_LABEL, sized by POD_GROUP_SIZE_ANNOTATION, or the pods of one Job (its
 * spec.parallelism, or fewer when fewer completions are left), are one unit: released together, and only once enough of them exist that the
 * released ones reach the gang's size. A gang still gathering its pods is not yet in line.
 *
 * Cohorts (internal/cohort): a budget naming a cohort may also take what its cohort lends. When the line's
 * first unit fits its budget's own maxGPUs but not the cohort, because others borrowed, their pods are
 * reclaimed (evicted). Then the LIST covers every member's namespace (the budgets' specs come from the
 * cache), and all cohort decisions of this process are serialised as one. Borrowers take free GPUs in fair
 * order, least recent use first (internal/cohort): each member's first unit in line is read from the same LIST.
 */

/** Marks a pod as a member of a gang (Kueue's pod-group label has the same meaning). */
export const POD_GROUP_LABEL = "capacity.lab.example.com/pod-group";
/** How many pods the gang has: it is released when that many exist. */
export const POD_GROUP_SIZE_ANNOTATION = "capacity.lab.example.com/pod-group-size";
/**
 * The pod condition that says why a pod waits and where it stands (True), or that it was released
 * (False, reason Released). The scheduler's own PodScheduled=False SchedulingGated says only that a gate holds it.
 */
export const QUEUED_CONDITION = "capacity.lab.example.com/Queued";
/** When the defaulter gated the pod (RFC 3339 with milliseconds): its place in line. */
export const QUEUED_AT_ANNOTATION = "capacity.lab.example.com/queued-at";
/** The Job controller's label on its pods, and its owner kind. */
const JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

export { isQueued, QUEUE_GATE };

export function isQueueBudget(budget: GPUBudget): boolean {
  return budget.spec?.enforcement === "Queue";
}

/** What a gang is: its key and how many pods make it whole (1 for a pod alone). */
export interface GangOf {
  key: string;
  size: number;
}

/** A unit of the line: one pod, or a gang's waiting pods. */
export interface QueueUnit {
  key: string;
  pods: Pod[];
  /** What the unit asks of each budget (thousandths of a GPU), by budget name. */
  milli: Map<string, number>;
  priority: number;
  queuedAt: number;
  /** A gang still gathering its pods: not in line yet. */
  incomplete: boolean;
}

/** A Queue budget of the namespace, with what its released pods hold now. */
export interface QueueBudget {
  name: string;
  /** namespace/name: its key as a cohort member. */
  key: string;
  maxMilli: number;
  countedMilli: number;
  /** Of countedMilli, what pods being deleted still hold. */
  terminatingMilli: number;
  /** How much of one pod it counts (0: not counted by this budget). */
  milliOf(pod: Pod): number;
  /** Its spec.gpuHours are spent (internal/ledger): nothing it counts is released. */
  spent?: boolean;
}

export function queueBudget(
  budget: GPUBudget,
  pods: readonly Pod[],
  now = Date.now(),
  spent = isGPUHoursSpent(budget),
): QueueBudget {
  const resources = budgetResources(budget.spec);
  const milliOf = (pod: Pod) =>
    selectorMatches(budget.spec.selector, pod.metadata?.labels) ? podMilliGPUs(pod, resources) : 0;
  let countedMilli = 0;
  let terminatingMilli = 0;
  for (const pod of pods) {
    if (!isCounted(pod, now)) continue;
    countedMilli += milliOf(pod);
    if (pod.metadata?.deletionTimestamp) terminatingMilli += milliOf(pod);
  }
  // Pods the Pod validator admitted past the line (bound by spec.nodeName) that the list does not show
  // yet hold their reservation (internal/webhook/v1/reservations.ts) until they appear.
  const listed = new Set(pods.map((p) => p.metadata?.uid));
  for (const r of budget.status?.reservations ?? []) {
    if (!listed.has(r.podUID) && Date.parse(r.expiresAt) > now) countedMilli += r.milliGPUs;
  }
  return {
    name: budget.metadata?.name ?? "",
    key: memberKey(budget),
    maxMilli: budget.spec.maxGPUs * 1000,
    countedMilli,
    terminatingMilli,
    milliOf,
    spent,
  };
}

/** The line of one namespace, in release order, from its pods (waiting and released) and Queue budgets. */
export function queueLine(
  pods: readonly Pod[],
  budgets: readonly QueueBudget[],
  gangOf: (pod: Pod) => GangOf | undefined,
  now = Date.now(),
): QueueUnit[] {
  const units = new Map<string, QueueUnit>();
  const released = new Map<string, number>();
  for (const pod of pods) {
    const gang = gangOf(pod);
    if (!isQueued(pod)) {
      if (gang && isCounted(pod, now)) released.set(gang.key, (released.get(gang.key) ?? 0) + 1);
      continue;
    }
    if (pod.metadata?.deletionTimestamp) continue;
    if (!budgets.some((b) => b.milliOf(pod) > 0)) continue;
    const key = gang?.key ?? `pod/${pod.metadata?.name}`;
    let unit = units.get(key);
    if (!unit) {
      unit = {
        key,
        pods: [],
        milli: new Map(),
        priority: Number.NEGATIVE_INFINITY,
        queuedAt: Number.POSITIVE_INFINITY,
        incomplete: false,
      };
      units.set(key, unit);
    }
    unit.pods.push(pod);
    for (const b of budgets) unit.milli.set(b.name, (unit.milli.get(b.name) ?? 0) + b.milliOf(pod));
    unit.priority = Math.max(unit.priority, pod.spec?.priority ?? 0);
    unit.queuedAt = Math.min(unit.queuedAt, queuedAt(pod));
  }
  for (const unit of units.values()) {
    const first = unit.pods[0];
    const gang = first && gangOf(first);
    if (gang) unit.incomplete = unit.pods.length + (released.get(gang.key) ?? 0) < gang.size;
  }
  return [...units.values()].sort(
    (a, b) =>
      b.priority - a.priority || a.queuedAt - b.queuedAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/**
 * The units to release now: in order, each fitting every budget, up to the first that does not fit. A
 * budget that is a member of `cohorts` fits by its cohort's rules, and `cohorts` records each release.
 */
export function planRelease(
  line: readonly QueueUnit[],
  budgets: readonly QueueBudget[],
  cohorts?: CohortState,
): QueueUnit[] {
  const used = new Map(budgets.map((b) => [b.name, b.countedMilli]));
  const inCohort = (b: QueueBudget) => cohorts?.has(b.key) ?? false;
  const release: QueueUnit[] = [];
  for (const unit of line) {
    if (unit.incomplete) continue;
    const fits = budgets.every((b) => {
      const milli = unit.milli.get(b.name) ?? 0;
      if (milli <= 0) return true;
      if (b.spent) return false;
      return inCohort(b)
        ? (cohorts?.fits(b.key, milli) ?? false)
        : (used.get(b.name) ?? 0) + milli <= b.maxMilli;
    });
    if (!fits) break;
    for (const b of budgets) {
      const milli = unit.milli.get(b.name) ?? 0;
      used.set(b.name, (used.get(b.name) ?? 0) + milli);
      if (inCohort(b)) cohorts?.add(b.key, milli);
    }
    release.push(unit);
  }
  return release;
}

/** A pod's arrival: the defaulter's annotation, else its creation time. */
function queuedAt(pod: Pod): number {
  const at = Date.parse(pod.metadata?.annotations?.[QUEUED_AT_ANNOTATION] ?? "");
  if (Number.isFinite(at)) return at;
  const created = Date.parse(String(pod.metadata?.creationTimestamp ?? ""));
  return Number.isFinite(created) ? created : 0;
}

/** The cohorts a release decision touches: their members' state, the pods reclaim may evict, the budgets by key. */
interface CohortView {
  state: CohortState;
  running: RunningPod[];
  budgets: Map<string, GPUBudget>;
}

/** What one namespace's queue holds after a release, per Queue budget: for status and metrics. */
export interface QueueState {
  queuedMilli: number;
  queuedPods: number;
  /** When a reclaim that has to wait for a pod's minRuntime can be decided again. */
  retryAt?: number;
}

export interface QueueReleaserOptions {
  client: Client;
  /** Reads the namespace's pods and Jobs from the API server (mgr.getAPIReader()). */
  apiReader: Reader;
  recorder: EventRecorder;
}

/**
 * Releases a namespace's queued pods in order (see the top of this file). Releases of one namespace are
 * serialised in this process, so two budgets' reconciles never decide on the same count at once.
 */
export class QueueReleaser {
  private readonly running = new Map<string, Promise<unknown>>();
  /** What each waiting pod was last told (by uid): a Queued event is recorded when that changes. */
  private readonly told = new Map<string, string>();

  constructor(private readonly options: QueueReleaserOptions) {}

  /** Releases what fits in `namespace` under its Queue budgets; returns each budget's queue after it. */
  release(
    namespace: string,
    budgets: readonly GPUBudget[],
    /** Budgets whose GPU-hours are (or are no longer) spent as of now, when their status does not say so yet. */
    spentNow: Record<string, boolean> = {},
  ): Promise<Map<string, QueueState>> {
    // A cohort's decisions read and change several namespaces: they are serialised together.
    const key = budgets.some((b) => isQueueBudget(b) && b.spec.cohort) ? "cohorts/" : namespace;
    const before = this.running.get(key) ?? Promise.resolve();
    const next = before.catch(() => undefined).then(() => this.releaseNow(namespace, budgets, spentNow));
    this.running.set(key, next);
    void next
      .finally(() => {
        if (this.running.get(key) === next) this.running.delete(key);
      })
      .catch(() => undefined);
    return next;
  }

  private async releaseNow(
    namespace: string,
    budgets: readonly GPUBudget[],
    spentNow: Record<string, boolean>,
  ): Promise<Map<string, QueueState>> {
    const { apiReader, recorder } = this.options;
    const pods = await apiReader.list(Pod, { namespace });
    const now = Date.now();
    const queue = budgets
      .filter(isQueueBudget)
      .map((b) => queueBudget(b, pods, now, spentNow[b.metadata?.name ?? ""] ?? isGPUHoursSpent(b)));
    const gangOf = await this.gangs(namespace, pods);
    const line = queueLine(pods, queue, gangOf, now);
    const cohort = await this.cohortOf(namespace, pods, budgets, now, line);
    const release = planRelease(line, queue, cohort?.state);
    const released = new Set<string>();
    for (const unit of release) {
      // A gang's pods go together; one that cannot be released (deleted meanwhile) is skipped, the rest
      // still go: the gang's GPUs were counted as one.
      await Promise.all(
        unit.pods.map(async (pod) => {
          if (await this.ungate(pod)) {
            released.add(pod.metadata?.uid ?? "");
            const waited = (now - queuedAt(pod)) / 1000;
            for (const b of queue) if (b.milliOf(pod) > 0) queueMetrics.waited(namespace, b.name, waited);
            const message = `GPUs free under the namespace's Queue budgets: released after ${waited.toFixed(1)}s in line`;
            recorder.event(pod, "Normal", "Released", message);
            await this.setCondition(pod, "False", "Released", message);
          }
        }),
      );
    }
    // What is left in line, per budget, and each waiting pod told where it stands when that changes. A
    // gang still gathering its pods waits but holds no place in line.
    const states = new Map<string, QueueState>(queue.map((b) => [b.name, { queuedMilli: 0, queuedPods: 0 }]));
    const waiting = line.filter((u) => !u.pods.every((p) => released.has(p.metadata?.uid ?? "")));
    const inLine = waiting.filter((u) => !u.incomplete);
    const blocked = inLine.find((u) => !release.includes(u));
    // A borrowing line comes after cohort peers with less recent GPU use: say who borrows first (no
    // figures here, they change every second; status.recentUsage and the gauge have them).
    const ahead = cohort && blocked ? this.aheadOf(blocked, queue, cohort.state) : undefined;
    const behind = ahead
      ? `; in cohort ${ahead.cohort}'s fair order ${ahead.key} borrows first: it has used fewer GPUs recently`
      : "";
    const inUse = queue
      .map((b) => {
        let milli = b.countedMilli;
        for (const pod of pods) if (released.has(pod.metadata?.uid ?? "")) milli += b.milliOf(pod);
        return `${b.name} ${formatGPUs(milli)}/${b.maxMilli / 1000} in use${b.spent ? ", its GPU-hours spent until the window moves" : ""}`;
      })
      .join(", ");
    for (const unit of waiting) {
      for (const pod of unit.pods) {
        for (const b of queue) {
          const milli = b.milliOf(pod);
          if (milli <= 0) continue;
          const s = states.get(b.name);
          if (s) {
            s.queuedMilli += milli;
            s.queuedPods += 1;
          }
        }
        const uid = pod.metadata?.uid ?? "";
        const why = unit.incomplete
          ? `waiting for the rest of its gang (${unit.key})`
          : `waiting for GPUs: position ${inLine.indexOf(unit) + 1} of ${inLine.length} in line${behind}`;
        if (this.told.get(uid) === why) continue;
        this.told.set(uid, why);
        recorder.event(pod, "Normal", "Queued", `held by ${QUEUE_GATE}: ${why} (${inUse})`);
        await this.setCondition(
          pod,
          "True",
          unit.incomplete ? "WaitingForGang" : "WaitingForGPUs",
          `${why} (${inUse})`,
        );
      }
    }
    const stillWaiting = new Set(pods.filter(isQueued).map((p) => p.metadata?.uid));
    for (const uid of [...this.told.keys()]) if (!stillWaiting.has(uid)) this.told.delete(uid);
    if (cohort && blocked) {
      const retryAt = await this.reclaim(blocked, queue, cohort, now);
      for (const s of states.values()) if (retryAt !== undefined) s.retryAt = retryAt;
    }
    return states;
  }

  /** The cohort member that borrows before a unit's budget (fair order), for the first of its budgets that has one. */
  private aheadOf(
    unit: QueueUnit,
    queue: readonly QueueBudget[],
    state: CohortState,
  ): CohortMember | undefined {
    for (const b of queue) {
      const milli = unit.milli.get(b.name) ?? 0;
      const ahead = milli > 0 && state.has(b.key) ? state.aheadOf(b.key, milli, false) : undefined;
      if (ahead) return ahead;
    }
    return undefined;
  }

  /**
   * The cohorts of the namespace's Queue budgets: every member (from the cache's cohort index) with what
   * its pods hold, counted from a LIST of its namespace (fresh, as the namespace's own), its recent GPU use
   * (from its status), its first unit in line when that would borrow, and the pods reclaim may evict.
   * Undefined when no Queue budget of the namespace names a cohort.
   */
  private async cohortOf(
    namespace: string,
    pods: readonly Pod[],
    budgets: readonly GPUBudget[],
    now: number,
    line: readonly QueueUnit[],
  ): Promise<CohortView | undefined> {
    const cohorts = new Set(
      budgets.filter(isQueueBudget).flatMap((b) => (b.spec.cohort ? [b.spec.cohort] : [])),
    );
    if (cohorts.size === 0) return undefined;
    const podsOf = new Map<string, readonly Pod[]>([[namespace, pods]]);
    const lines = new Map<string, { line: readonly QueueUnit[]; queue: readonly QueueBudget[] }>();
    const lineOf = async (ns: string, nsPods: readonly Pod[]) => {
      let l = lines.get(ns);
      if (!l) {
        const nsBudgets =
          ns === namespace ? budgets : await this.options.client.list(GPUBudgetKind, { namespace: ns });
        const queue = nsBudgets.filter(isQueueBudget).map((b) => queueBudget(b, nsPods, now));
        l = {
          line: ns === namespace ? line : queueLine(nsPods, queue, await this.gangs(ns, nsPods), now),
          queue,
        };
        lines.set(ns, l);
      }
      return l;
    };
    const members: CohortMember[] = [];
    const running: RunningPod[] = [];
    const byKey = new Map<string, GPUBudget>();
    for (const cohort of cohorts) {
      for (const b of await this.options.client.list(GPUBudgetKind, {
        matchingFields: { [BUDGET_COHORT_INDEX]: cohort },
      })) {
        const ns = b.metadata?.namespace ?? "";
        let nsPods = podsOf.get(ns);
        if (!nsPods) {
          nsPods = await this.options.apiReader.list(Pod, { namespace: ns });
          podsOf.set(ns, nsPods);
        }
        const q = queueBudget(b, nsPods, now);
        byKey.set(q.key, b);
        let waiting = false;
        for (const pod of nsPods) {
          const milli = q.milliOf(pod);
          if (milli <= 0 || pod.metadata?.deletionTimestamp) continue;
          // A member whose GPU-hours are spent releases nothing: its line does not hold the others back.
          if (isQueued(pod)) waiting ||= isQueueBudget(b) && !q.spent && q.countedMilli + milli <= q.maxMilli;
          else if (isCounted(pod, now))
            running.push({ pod, member: q.key, milli, startedAt: startedAt(pod, QUEUED_CONDITION) });
        }
        // Its first unit in line competes for the pool when it would borrow and asks no other budget of its
        // namespace (whose room this cohort does not decide): a line is strict, nothing behind it goes first.
        let headMilli: number | undefined;
        if (isQueueBudget(b) && !q.spent && nsPods.some(isQueued)) {
          const { line: nsLine, queue } = await lineOf(ns, nsPods);
          const head = nsLine.find((u) => !u.incomplete);
          const milli = head?.milli.get(q.name) ?? 0;
          const alone = queue.every((o) => o.name === q.name || (head?.milli.get(o.name) ?? 0) <= 0);
          if (milli > 0 && alone && q.countedMilli + milli > q.maxMilli) headMilli = milli;
        }
        const recentMilliGPUSeconds = recentUsageAt(
          b.status?.recentUsage,
          b.status?.allocatedMilliGPUs ?? 0,
          now,
        );
        members.push(
          cohortMember(b, {
            allocatedMilli: q.countedMilli,
            terminatingMilli: q.terminatingMilli,
            waiting,
            recentMilliGPUSeconds,
            headMilli,
          }),
        );
      }
    }
    return { state: new CohortState(members), running, budgets: byKey };
  }

  /**
   * Reclaim for the first unit in line that did not fit: when it asks one cohort budget for GPUs within
   * that budget's own maxGPUs, evicts borrowed pods (internal/cohort planReclaim) through the Eviction API,
   * so PodDisruptionBudgets hold. The unit is released by a later reconcile, once the evicted pods are
   * gone. Returns when to decide again if a pod has not yet run its minRuntime.
   */
  private async reclaim(
    unit: QueueUnit,
    queue: readonly QueueBudget[],
    cohort: CohortView,
    now: number,
  ): Promise<number | undefined> {
    const asked = queue.filter((b) => (unit.milli.get(b.name) ?? 0) > 0);
    const lender = asked[0];
    // A unit asking several budgets is not reclaimed for: evicting for one may not make it fit the others.
    // Nor for a budget whose GPU-hours are spent: it would not release the unit anyway.
    if (asked.length !== 1 || !lender || lender.spent || !cohort.state.has(lender.key)) return undefined;
    const milli = unit.milli.get(lender.name) ?? 0;
    if (!cohort.state.withinOwn(lender.key, milli) || cohort.state.fits(lender.key, milli)) return undefined;
    const plan = planReclaim(cohort.state, lender.key, milli, cohort.running, now);
    const { client, recorder } = this.options;
    const eviction = client.subResource("eviction") as Partial<SubResourceClientWithCreate>;
    for (const r of plan.evict) {
      const name = r.pod.metadata?.name ?? "";
      const ns = r.pod.metadata?.namespace ?? "";
      if (!eviction.create)
        throw new Error("the client cannot create pods/eviction: reclaim needs the manager's API client");
      try {
        await eviction.create(Pod, r.pod, {
          apiVersion: "policy/v1",
          kind: "Eviction",
          metadata: { name, namespace: ns },
        });
      } catch (err) {
        // Gone already; or a PodDisruptionBudget forbids it now (429): the next reconcile decides again.
        if (isNotFound(err)) continue;
        if (isApiError(err) && err.code === 429) {
          recorder.event(
            r.pod,
            "Warning",
            "ReclaimBlocked",
            `cohort ${cohort.state.get(lender.key)?.cohort}: ${lender.key} needs its GPUs back, but a PodDisruptionBudget forbids evicting this pod now`,
          );
          return now + 10_000;
        }
        throw err;
      }
      const [borrowerNs, borrowerName] = r.member.split("/") as [string, string];
      cohortMetrics.reclaimed(borrowerNs, borrowerName);
      const message = `reclaimed ${formatGPUs(r.milli)} borrowed GPUs of ${r.member} for ${lender.key} (cohort ${cohort.state.get(lender.key)?.cohort})`;
      recorder.event(r.pod, "Warning", "Reclaimed", `evicted: ${message}`);
      const borrower = cohort.budgets.get(r.member);
      const lent = cohort.budgets.get(lender.key);
      if (borrower) recorder.event(borrower, "Warning", "Reclaimed", `evicted pod ${name}: ${message}`);
      if (lent) recorder.event(lent, "Normal", "Reclaimed", `evicted pod ${ns}/${name}: ${message}`);
    }
    return plan.retryAt;
  }

  /** Sets QUEUED_CONDITION on the pod (a strategic merge by type: the kubelet's and scheduler's stay). */
  private async setCondition(
    pod: Pod,
    status: "True" | "False",
    reason: string,
    message: string,
  ): Promise<void> {
    try {
      await this.options.client.status().patch(
        Pod,
        { namespace: pod.metadata?.namespace ?? "", name: pod.metadata?.name ?? "" },
        strategicMergePatch({
          status: {
            conditions: [
              {
                type: QUEUED_CONDITION,
                status,
                reason,
                message,
                lastTransitionTime: new Date().toISOString(),
              },
            ],
          },
        }),
      );
    } catch (err) {
      // A pod deleted meanwhile has nothing to say; the condition is information, the gate is the fact.
      if (!isNotFound(err)) throw err;
    }
  }

  /** Removes QUEUE_GATE, and only it, if the pod still carries it where it was read (JSON patch test). */
  private async ungate(pod: Pod): Promise<boolean> {
    const gates = pod.spec?.schedulingGates ?? [];
    const at = gates.findIndex((g) => g.name === QUEUE_GATE);
    if (at < 0) return false;
    try {
      await this.options.client.patch(
        Pod,
        { namespace: pod.metadata?.namespace ?? "", name: pod.metadata?.name ?? "" },
        jsonPatch([
          { op: "test", path: `/metadata/uid`, value: pod.metadata?.uid },
          { op: "test", path: `/spec/schedulingGates/${at}/name`, value: QUEUE_GATE },
          { op: "remove", path: `/spec/schedulingGates/${at}` },
        ]),
      );
      return true;
    } catch (err) {
      // Gone, or changed since the list: the next reconcile decides again from a fresh list.
      if (isNotFound(err) || isInvalid(err)) return false;
      throw err;
    }
  }

  /** What gang a pod of `namespace` belongs to: its pod group, or its Job (sized from the API server). */
  private async gangs(namespace: string, pods: readonly Pod[]): Promise<(pod: Pod) => GangOf | undefined> {
    const sizes = await this.jobSizes(namespace, pods);
    return (pod: Pod): GangOf | undefined => {
      const group = pod.metadata?.labels?.[POD_GROUP_LABEL];
      if (group) {
        const size = Number(pod.metadata?.annotations?.[POD_GROUP_SIZE_ANNOTATION] ?? "1");
        return { key: `group/${group}`, size: Number.isInteger(size) && size > 0 ? size : 1 };
      }
      const job = pod.metadata?.labels?.[JOB_NAME_LABEL];
      if (job && sizes.has(job)) return { key: `job/${job}`, size: sizes.get(job) ?? 1 };
      return undefined;
    };
  }

  /** Each waiting Job pod's Job size (spec.parallelism, default 1), read from the API server. */
  private async jobSizes(namespace: string, pods: readonly Pod[]): Promise<Map<string, number>> {
    const jobs = new Set<string>();
    for (const pod of pods) {
      const job = pod.metadata?.labels?.[JOB_NAME_LABEL];
      if (
        job &&
        isQueued(pod) &&
        pod.metadata?.ownerReferences?.some((o) => o.kind === "Job" && o.controller)
      )
        jobs.add(job);
    }
    const sizes = new Map<string, number>();
    for (const name of jobs) {
      try {
        const job = await this.options.apiReader.get(Job, { namespace, name });
        const parallelism = job.spec?.parallelism ?? 1;
        // The pods still to run: a Job near its last completions starts fewer than its parallelism.
        const completions = job.spec?.completions;
        const left =
          completions === undefined || completions === null
            ? parallelism
            : completions - (job.status?.succeeded ?? 0);
        sizes.set(name, Math.max(1, Math.min(parallelism, left)));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return sizes;
  }
}
