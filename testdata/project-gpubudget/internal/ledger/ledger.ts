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
  type ConditionInput,
  findStatusCondition,
  isConflict,
  isNotFound,
  Pod,
  strategicMergePatch,
} from "@kbts/runtime";
import type {
  GPUBudget,
  GPUBudgetGPUHours,
  GPUBudgetGPUHoursPeriod,
  GPUBudgetGPUHoursStatus,
} from "../../api/v1alpha1/gpubudget_types.js";
import { budgetResources, podMilliGPUs, selectorMatches } from "../gpu/podgpus.js";

/**
 * spec.gpuHours: the GPU-hour ledger. A pod's GPU time is the GPUs it holds (weights applied) times the
 * time from its start (status.startTime: the kubelet has taken it, so its GPUs are bound to it) to its
 * end. Running pods are counted live and never stored; a finished pod's time is charged once, to the
 * hours (rolling window) or calendar period it ran in, and its uid kept in recordedPods while it exists.
 *
 * Why a finalizer (GPU_HOURS_FINALIZER): a pod deleted while no leader runs would vanish with its time
 * unrecorded. The leader adds the finalizer to every pod a GPU-hour budget counts, and removes it once
 * every such budget has charged the pod (in a status write made before the removal), so a deleted pod
 * waits for its charge, across leader changes. Like Kueue's on the pods it manages, it holds pods in
 * Terminating while no operator runs: uninstalling removes it (see the README).
 */
export const GPU_HOURS_FINALIZER = "capacity.lab.example.com/gpu-hours";

const HOUR_MS = 3_600_000;
/** The most hours a rolling window may have (31 days), so the ledger holds at most 745 periods. */
export const MAX_ROLLING_HOURS = 744;

export type Window = { rollingHours: number } | { calendar: "daily" | "weekly" | "monthly" };

export function parseWindow(text: string): Window {
  const rolling = /^([1-9][0-9]{0,2})h$/.exec(text);
  if (rolling && Number(rolling[1]) <= MAX_ROLLING_HOURS) return { rollingHours: Number(rolling[1]) };
  if (text === "daily" || text === "weekly" || text === "monthly") return { calendar: text };
  throw new Error(
    `spec.gpuHours.window ${JSON.stringify(text)}: use a whole number of hours up to ${MAX_ROLLING_HOURS}h, or daily, weekly or monthly`,
  );
}

/** The period holding `t`: its hour for a rolling window, else its UTC day, week (from Monday) or month. */
export function periodStart(window: Window, t: number): number {
  if ("rollingHours" in window) return Math.floor(t / HOUR_MS) * HOUR_MS;
  const d = new Date(t);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  if (window.calendar === "daily") return Date.UTC(y, m, day);
  if (window.calendar === "monthly") return Date.UTC(y, m, 1);
  return Date.UTC(y, m, day - ((d.getUTCDay() + 6) % 7));
}

/** The start of the period after the one starting at `start`. */
export function nextPeriodStart(window: Window, start: number): number {
  if ("rollingHours" in window) return start + HOUR_MS;
  const d = new Date(start);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  if (window.calendar === "daily") return Date.UTC(y, m, day + 1);
  if (window.calendar === "weekly") return Date.UTC(y, m, day + 7);
  return Date.UTC(y, m + 1, 1);
}

/** Where the window holding `now` starts: the rolling window's oldest hour, or the calendar period's start. */
export function windowStart(window: Window, now: number): number {
  const current = periodStart(window, now);
  return "rollingHours" in window ? current - (window.rollingHours - 1) * HOUR_MS : current;
}

/** A decimal count of GPU-hours ("12.5") in thousandths of a GPU times seconds. */
export function gpuHoursToMilliGPUSeconds(text: string): number {
  const match = /^([0-9]+)(?:\.([0-9]{1,3}))?$/.exec(text);
  if (!match)
    throw new Error(
      `spec.gpuHours.limit ${JSON.stringify(text)}: write GPU-hours as a decimal such as "500" or "0.5"`,
    );
  const milliHours = Number(match[1]) * 1000 + Number((match[2] ?? "").padEnd(3, "0"));
  return milliHours * 3600;
}

/** Thousandths of a GPU times seconds as GPU-hours with 3 decimals, rounded down ("12.500"). */
export function formatGPUHours(milliGPUSeconds: number): string {
  return (Math.floor(milliGPUSeconds / 3600) / 1000).toFixed(3);
}

/** When the pod started holding its GPUs (status.startTime), undefined before the kubelet took it. */
export function podStart(pod: Pod): number | undefined {
  const start = pod.status?.startTime;
  return start ? Date.parse(String(start)) : undefined;
}

/**
 * When the pod stopped holding its GPUs, or undefined while it may still run: a Succeeded or Failed
 * pod at its containers' last finishedAt (without one, its deletion time, else `now`, when it is first
 * seen finished); a pod being deleted at its deletionTimestamp once that has passed (the kubelet has
 * killed it by then; a forced deletion moves the timestamp to the moment of the request).
 */
export function podEnd(pod: Pod, now: number): number | undefined {
  const deletion = pod.metadata?.deletionTimestamp
    ? Date.parse(String(pod.metadata.deletionTimestamp))
    : undefined;
  const phase = pod.status?.phase;
  if (phase === "Succeeded" || phase === "Failed") {
    const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
    const finished = statuses.flatMap((s) => {
      const at = s.state?.terminated?.finishedAt;
      return at ? [Date.parse(String(at))] : [];
    });
    return finished.length > 0 ? Math.max(...finished) : (deletion ?? now);
  }
  if (deletion !== undefined && deletion <= now) return deletion;
  return undefined;
}

export interface LedgerInput {
  spec: GPUBudgetGPUHours;
  previous: GPUBudgetGPUHoursStatus | undefined;
  /** The namespace's pods; those the budget does not select must be left out, or have 0 GPUs. */
  pods: readonly Pod[];
  /** The thousandths of a GPU a pod holds under this budget (its resources and weights). */
  milliGPUs(pod: Pod): number;
  /** Recorded uids whose pods the API server no longer has (a fresh read): they leave recordedPods. */
  gone: ReadonlySet<string>;
  now: number;
}

export interface Ledger {
  status: GPUBudgetGPUHoursStatus;
  usedMilliGPUSeconds: number;
  limitMilliGPUSeconds: number;
  /** The thousandths of a GPU the running pods hold: how fast usedMilliGPUSeconds grows. */
  runningMilliGPUs: number;
  /** The next moment the figures change with time alone: a period ends, or a deletion time passes. */
  nextChangeAt: number;
}

/**
 * The ledger at `now`: the previous one's periods still inside the window, plus the time of every
 * selected pod that has finished since and is not yet in recordedPods, plus the running pods up to now.
 * Pure: the caller writes the status (with its resourceVersion as precondition) before it removes any
 * finalizer, so a pod is charged exactly once whoever writes.
 */
export function updateLedger(input: LedgerInput): Ledger {
  const { now } = input;
  const window = parseWindow(input.spec.window);
  const from = windowStart(window, now);
  const periods = new Map<number, number>();
  for (const p of input.previous?.periods ?? []) {
    const start = Date.parse(p.start);
    if (start >= from) periods.set(start, (periods.get(start) ?? 0) + p.milliGPUSeconds);
  }
  const recorded = new Set((input.previous?.recordedPods ?? []).filter((uid) => !input.gone.has(uid)));
  let running = 0;
  let runningMilliGPUs = 0;
  let nextChangeAt = nextPeriodStart(window, periodStart(window, now));
  for (const pod of input.pods) {
    const uid = pod.metadata?.uid;
    if (!uid || recorded.has(uid)) continue;
    const milli = input.milliGPUs(pod);
    const start = podStart(pod);
    if (milli <= 0 || start === undefined) continue;
    const end = podEnd(pod, now);
    if (end === undefined) {
      running += milli * Math.max(0, Math.floor((now - Math.max(start, from)) / 1000));
      runningMilliGPUs += milli;
      const deletion = pod.metadata?.deletionTimestamp;
      if (deletion) nextChangeAt = Math.min(nextChangeAt, Date.parse(String(deletion)));
      continue;
    }
    // Charged by the period it ran in; what ran before the window is outside it already.
    for (let t = Math.max(start, from); t < end; ) {
      const period = periodStart(window, t);
      const until = Math.min(end, nextPeriodStart(window, period));
      periods.set(period, (periods.get(period) ?? 0) + milli * Math.round((until - t) / 1000));
      t = until;
    }
    recorded.add(uid);
  }
  const finished = [...periods.values()].reduce((a, b) => a + b, 0);
  const used = finished + running;
  const limit = gpuHoursToMilliGPUSeconds(input.spec.limit);
  const ordered: GPUBudgetGPUHoursPeriod[] = [...periods]
    .filter(([, v]) => v > 0)
    .sort(([a], [b]) => a - b)
    .map(([start, milliGPUSeconds]) => ({
      start: new Date(start).toISOString().replace(".000Z", "Z"),
      milliGPUSeconds,
    }));
  const status: GPUBudgetGPUHoursStatus = {
    usedGPUHours: formatGPUHours(used),
    remainingGPUHours: formatGPUHours(Math.max(0, limit - used)),
    windowStart: new Date(from).toISOString().replace(".000Z", "Z"),
    observedAt: new Date(Math.floor(now / 1000) * 1000).toISOString().replace(".000Z", "Z"),
  };
  if (ordered.length > 0) status.periods = ordered;
  if (recorded.size > 0) status.recordedPods = [...recorded].sort();
  return { status, usedMilliGPUSeconds: used, limitMilliGPUSeconds: limit, runningMilliGPUs, nextChangeAt };
}

/** Which side of the budget's warning and limit the ledger is on. */
export type GPUHoursState = "WithinLimit" | "NearLimit" | "Spent";

export function gpuHoursState(ledger: Ledger, warningPercent = 80): GPUHoursState {
  if (ledger.usedMilliGPUSeconds >= ledger.limitMilliGPUSeconds) return "Spent";
  if (ledger.usedMilliGPUSeconds * 100 >= ledger.limitMilliGPUSeconds * warningPercent) return "NearLimit";
  return "WithinLimit";
}

/**
 * When the running pods, at their current rate, take the ledger past its warning or its limit: the
 * reconcile comes back then, so a budget is spent on time, not at the next pod event.
 */
export function nextCrossingAt(ledger: Ledger, warningPercent: number, now: number): number {
  if (ledger.runningMilliGPUs <= 0) return Number.POSITIVE_INFINITY;
  const thresholds = [(ledger.limitMilliGPUSeconds * warningPercent) / 100, ledger.limitMilliGPUSeconds];
  const ahead = thresholds.filter((t) => t > ledger.usedMilliGPUSeconds);
  if (ahead.length === 0) return Number.POSITIVE_INFINITY;
  const seconds = (Math.min(...ahead) - ledger.usedMilliGPUSeconds) / ledger.runningMilliGPUs;
  return now + Math.ceil(seconds) * 1000;
}

/** A pod's uid is recorded by every GPU-hour budget that counts it: its finalizer can go. */
export function finalizerWanted(pod: Pod, budgets: readonly GPUBudget[]): boolean {
  const uid = pod.metadata?.uid ?? "";
  const owed = budgets.some(
    (b) =>
      b.spec.gpuHours !== undefined &&
      selectorMatches(b.spec.selector, pod.metadata?.labels) &&
      podMilliGPUs(pod, budgetResources(b.spec)) > 0 &&
      !(b.status?.gpuHours?.recordedPods ?? []).includes(uid),
  );
  // A pod deleted before it started holds no time to charge.
  return owed && !(pod.metadata?.deletionTimestamp && podStart(pod) === undefined);
}

/**
 * Puts GPU_HOURS_FINALIZER on the namespace's pods some GPU-hour budget has yet to charge, and takes it
 * off the others. Call it only after the budgets' ledgers are written: `budgets` must carry them. A
 * strategic merge adds or removes only this finalizer, whoever else holds one.
 */
export async function syncGPUHourFinalizers(
  client: Client,
  pods: readonly Pod[],
  budgets: readonly GPUBudget[],
): Promise<void> {
  for (const pod of pods) {
    const has = (pod.metadata?.finalizers ?? []).includes(GPU_HOURS_FINALIZER);
    const want = finalizerWanted(pod, budgets);
    if (has === want) continue;
    // No finalizer can be added to a pod being deleted; one finished is charged by this reconcile.
    const phase = pod.status?.phase;
    if (want && (pod.metadata?.deletionTimestamp || phase === "Succeeded" || phase === "Failed")) continue;
    const key = { namespace: pod.metadata?.namespace ?? "", name: pod.metadata?.name ?? "" };
    try {
      await client.patch(
        Pod,
        key,
        strategicMergePatch(
          want
            ? { metadata: { uid: pod.metadata?.uid, finalizers: [GPU_HOURS_FINALIZER] } }
            : {
                metadata: {
                  uid: pod.metadata?.uid,
                  "$deleteFromPrimitiveList/finalizers": [GPU_HOURS_FINALIZER],
                },
              },
        ),
      );
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }
}

/** The condition a budget with spec.gpuHours carries: True (WithinLimit, NearLimit) or False (Spent). */
export const GPU_HOURS_CONDITION = "GPUHoursAvailable";

export function gpuHoursCondition(
  ledger: Ledger,
  spec: GPUBudgetGPUHours,
  generation: number,
): ConditionInput {
  const state = gpuHoursState(ledger, spec.warningPercent ?? 80);
  const message = `${ledger.status.usedGPUHours}/${spec.limit} GPU-hours used in the window (${spec.window}, since ${ledger.status.windowStart})`;
  return {
    type: GPU_HOURS_CONDITION,
    status: state === "Spent" ? "False" : "True",
    reason: state,
    message,
    observedGeneration: generation,
  };
}

/** Whether the budget's last written ledger says its GPU-hours are spent (what the webhook and the queue act on). */
export function isGPUHoursSpent(budget: GPUBudget): boolean {
  return (
    budget.spec.gpuHours !== undefined &&
    findStatusCondition(budget.status?.conditions, GPU_HOURS_CONDITION)?.reason === "Spent"
  );
}
