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

import type { Pod } from "@kbts/runtime";
import { describe, expect, it } from "vitest";
import type { GPUBudget, GPUBudgetSpec } from "../../api/v1alpha1/gpubudget_types.js";
import {
  type CohortMember,
  CohortState,
  cohortMember,
  lentMilli,
  minRuntimeMs,
  planReclaim,
  RECENT_USAGE_HALF_LIFE_MS,
  type RunningPod,
  recentShare,
  recentUsageAt,
  startedAt,
} from "./cohort.js";

function budget(namespace: string, spec: Partial<GPUBudgetSpec> & { maxGPUs: number }): GPUBudget {
  return {
    apiVersion: "capacity.lab.example.com/v1alpha1",
    kind: "GPUBudget",
    metadata: { name: "gb", namespace },
    spec: { enforcement: "Queue", cohort: "lab", ...spec },
  };
}

/** A member of cohort "lab" in namespace `ns` holding `allocated` GPUs. */
function member(
  ns: string,
  spec: Partial<GPUBudgetSpec> & { maxGPUs: number },
  allocated: number,
  extra: { terminating?: number; waiting?: boolean; recent?: number; head?: number } = {},
): CohortMember {
  return cohortMember(budget(ns, spec), {
    allocatedMilli: allocated * 1000,
    terminatingMilli: (extra.terminating ?? 0) * 1000,
    waiting: extra.waiting,
    recentMilliGPUSeconds: extra.recent,
    headMilli: extra.head === undefined ? undefined : extra.head * 1000,
  });
}

function running(ns: string, name: string, gpus: number, startedAtMs: number): RunningPod {
  return {
    pod: { metadata: { name, namespace: ns } } as Pod,
    member: `${ns}/gb`,
    milli: gpus * 1000,
    startedAt: startedAtMs,
  };
}

describe("cohort fit", () => {
  it("lets a Queue budget borrow its peers' unused GPUs, up to the cohort's total", () => {
    const state = new CohortState([member("a", { maxGPUs: 2 }, 2), member("b", { maxGPUs: 4 }, 1)]);
    expect(state.fits("a/gb", 3000)).toBe(true);
    expect(state.fits("a/gb", 4000)).toBe(false);
    state.add("a/gb", 3000);
    expect(state.fits("b/gb", 1000)).toBe(false);
  });

  it("stops at borrowingLimit", () => {
    const state = new CohortState([
      member("a", { maxGPUs: 2, borrowingLimit: 1 }, 2),
      member("b", { maxGPUs: 4 }, 0),
    ]);
    expect(state.fits("a/gb", 1000)).toBe(true);
    expect(state.fits("a/gb", 2000)).toBe(false);
  });

  it("lends no more than lendingLimit: the rest of maxGPUs stays the lender's", () => {
    const state = new CohortState([
      member("a", { maxGPUs: 0 }, 0),
      member("b", { maxGPUs: 4, lendingLimit: 1 }, 0),
    ]);
    expect(state.fits("a/gb", 1000)).toBe(true);
    expect(state.fits("a/gb", 2000)).toBe(false);
    state.add("a/gb", 1000);
    // b still has its kept 3 GPUs, but its 4th was lent.
    expect(state.fits("b/gb", 3000)).toBe(true);
    expect(state.fits("b/gb", 4000)).toBe(false);
  });

  it("never lets a Deny or Report budget borrow, though it lends", () => {
    const state = new CohortState([
      member("a", { maxGPUs: 2, enforcement: "Deny" }, 2),
      member("b", { maxGPUs: 4 }, 0),
    ]);
    expect(state.fits("a/gb", 1000)).toBe(false);
    expect(state.fits("b/gb", 4000)).toBe(true);
    const lender = new CohortState([
      member("a", { maxGPUs: 0 }, 0),
      member("r", { maxGPUs: 2, enforcement: "Report" }, 0),
    ]);
    expect(lender.fits("a/gb", 2000)).toBe(true);
  });

  it("holds borrowing while a peer waits with a pod that fits its own maxGPUs", () => {
    const state = new CohortState([
      member("a", { maxGPUs: 2 }, 2),
      member("b", { maxGPUs: 4 }, 1, { waiting: true }),
    ]);
    expect(state.fits("a/gb", 1000)).toBe(false);
    // Within its own maxGPUs a budget never waits for anyone.
    const own = new CohortState([
      member("a", { maxGPUs: 2 }, 1),
      member("b", { maxGPUs: 4 }, 1, { waiting: true }),
    ]);
    expect(own.fits("a/gb", 1000)).toBe(true);
  });

  it("reports lent GPUs from the borrowers' borrowed GPUs, lenders in key order", () => {
    const members = [
      member("a", { maxGPUs: 2 }, 5),
      member("b", { maxGPUs: 2 }, 0),
      member("c", { maxGPUs: 4, lendingLimit: 3 }, 0),
    ];
    expect(lentMilli(members, "b/gb")).toBe(2000);
    expect(lentMilli(members, "c/gb")).toBe(1000);
    expect(lentMilli(members, "a/gb")).toBe(0);
  });
});

describe("recent usage", () => {
  const at = Date.parse("2026-01-01T12:00:00Z");
  const hour = RECENT_USAGE_HALF_LIFE_MS;

  it("halves every half-life, and adds what was held since, each second decayed", () => {
    const previous = { milliGPUSeconds: 8_000_000, at: new Date(at).toISOString() };
    expect(RECENT_USAGE_HALF_LIFE_MS).toBe(3_600_000);
    expect(recentUsageAt(previous, 0, at)).toBe(8_000_000);
    expect(recentUsageAt(previous, 0, at + hour)).toBeCloseTo(4_000_000, 6);
    expect(recentUsageAt(previous, 0, at + 2 * hour)).toBeCloseTo(2_000_000, 6);
    // 1 GPU for one half-life: 3600 GPU-seconds, weighted from 1/2 (oldest) to 1 (newest): 3600/(2 ln 2).
    const held = recentUsageAt({ milliGPUSeconds: 0, at: previous.at }, 1000, at + hour);
    expect(held).toBeCloseTo((1000 * 3600) / (2 * Math.LN2), 3);
    // Over a short time little decays: 2 GPUs for 10 s is just under 20 GPU-seconds.
    const short = recentUsageAt({ milliGPUSeconds: 0, at: previous.at }, 2000, at + 10_000);
    expect(short).toBeGreaterThan(19_950);
    expect(short).toBeLessThan(20_000);
    // Folding in steps gives the same figure as at once: the status may be written at any change.
    const step = {
      milliGPUSeconds: recentUsageAt(previous, 1000, at + hour / 3),
      at: new Date(at + hour / 3).toISOString(),
    };
    expect(recentUsageAt(step, 1000, at + hour)).toBeCloseTo(recentUsageAt(previous, 1000, at + hour), 3);
    // A budget held forever tends to A·H/ln 2; nothing recorded yet is 0.
    expect(recentUsageAt({ milliGPUSeconds: 0, at: previous.at }, 1000, at + 40 * hour)).toBeCloseTo(
      (1000 * 3600) / Math.LN2,
      0,
    );
    expect(recentUsageAt(undefined, 1000, at + hour)).toBe(0);
  });

  it("compares members per GPU of maxGPUs; one without maxGPUs comes last once it has used any", () => {
    expect(recentShare(member("a", { maxGPUs: 4 }, 0, { recent: 4000 }))).toBe(1);
    expect(recentShare(member("b", { maxGPUs: 1 }, 0, { recent: 2000 }))).toBe(2);
    expect(recentShare(member("z", { maxGPUs: 0 }, 0, { recent: 0 }))).toBe(0);
    expect(recentShare(member("z", { maxGPUs: 0 }, 0, { recent: 1 }))).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("fair order among borrowers", () => {
  // The cohort's pool: a 2 + b 2 + l 4 = 8; a and b use their own, l uses 3: 1 GPU is free.
  const lender = member("l", { maxGPUs: 4 }, 3);

  it("lets the borrower with less recent use per GPU take the free GPUs first", () => {
    const state = new CohortState([
      member("a", { maxGPUs: 2 }, 2, { recent: 5000, head: 1 }),
      member("b", { maxGPUs: 2 }, 2, { recent: 1000, head: 1 }),
      lender,
    ]);
    expect(state.fits("a/gb", 1000)).toBe(false);
    expect(state.aheadOf("a/gb", 1000)?.key).toBe("b/gb");
    expect(state.fits("b/gb", 1000)).toBe(true);
    expect(state.aheadOf("b/gb", 1000)).toBeUndefined();
    // Once b took the free GPU, a's unit does not fit anyway; nor does it wait behind b for it. b still
    // borrows first when GPUs free up (what a's pods are told).
    state.add("b/gb", 1000);
    expect(state.aheadOf("a/gb", 1000)).toBeUndefined();
    expect(state.aheadOf("a/gb", 1000, false)?.key).toBe("b/gb");
  });

  it("divides by maxGPUs: more GPU time over a larger quota can be the smaller share", () => {
    const state = new CohortState([
      member("a", { maxGPUs: 4 }, 4, { recent: 6000, head: 1 }),
      member("b", { maxGPUs: 1 }, 1, { recent: 2000, head: 1 }),
      member("l", { maxGPUs: 4 }, 3),
    ]);
    expect(state.fits("a/gb", 1000)).toBe(true);
    expect(state.fits("b/gb", 1000)).toBe(false);
  });

  it("breaks ties by key, so every replica decides alike", () => {
    const state = new CohortState([
      member("b", { maxGPUs: 2 }, 2, { recent: 1000, head: 1 }),
      member("a", { maxGPUs: 2 }, 2, { recent: 1000, head: 1 }),
      lender,
    ]);
    expect(state.fits("a/gb", 1000)).toBe(true);
    expect(state.aheadOf("b/gb", 1000)?.key).toBe("a/gb");
  });

  it("does not wait behind a member whose first unit cannot fit, or that is not waiting to borrow", () => {
    // b's 2-GPU unit cannot fit the 1 free GPU: a takes it.
    const big = new CohortState([
      member("a", { maxGPUs: 2 }, 2, { recent: 5000, head: 1 }),
      member("b", { maxGPUs: 2 }, 2, { recent: 0, head: 2 }),
      lender,
    ]);
    expect(big.fits("a/gb", 1000)).toBe(true);
    // b's borrowingLimit stops it: a takes it.
    const limited = new CohortState([
      member("a", { maxGPUs: 2 }, 2, { recent: 5000, head: 1 }),
      member("b", { maxGPUs: 2, borrowingLimit: 0 }, 2, { recent: 0, head: 1 }),
      lender,
    ]);
    expect(limited.fits("a/gb", 1000)).toBe(true);
    // b has nothing waiting to borrow.
    const idle = new CohortState([
      member("a", { maxGPUs: 2 }, 2, { recent: 5000, head: 1 }),
      member("b", { maxGPUs: 2 }, 2, { recent: 0 }),
      lender,
    ]);
    expect(idle.fits("a/gb", 1000)).toBe(true);
  });

  it("never holds back a unit within the member's own maxGPUs, and lenders still come first", () => {
    const own = new CohortState([
      member("a", { maxGPUs: 2 }, 1, { recent: 5000 }),
      member("b", { maxGPUs: 2 }, 2, { recent: 0, head: 1 }),
      lender,
    ]);
    expect(own.fits("a/gb", 1000)).toBe(true);
    expect(own.aheadOf("a/gb", 1000)).toBeUndefined();
    // l waits for one of its own GPUs: even the borrower with the least recent use waits for it.
    const lenderWaits = new CohortState([
      member("a", { maxGPUs: 2 }, 2, { recent: 0, head: 1 }),
      member("l", { maxGPUs: 4 }, 3, { waiting: true, recent: 9000 }),
      member("b", { maxGPUs: 2 }, 2),
    ]);
    expect(lenderWaits.fits("a/gb", 1000)).toBe(false);
    expect(lenderWaits.fits("l/gb", 1000)).toBe(true);
  });
});

describe("reclaim", () => {
  const now = Date.parse("2026-01-01T12:00:00Z");
  const minute = 60_000;

  it("evicts the newest borrowed pods that have run minRuntime, just enough for the lender's unit", () => {
    // a holds 5 of its 2 (3 borrowed from b, the cohort is full at 6/6); b wants 2 of its own 4 back.
    const state = new CohortState([
      member("a", { maxGPUs: 2, reclaim: { minRuntime: "10m" } }, 5),
      member("b", { maxGPUs: 4 }, 1),
    ]);
    const pods = [
      running("a", "old", 2, now - 60 * minute),
      running("a", "mid", 1, now - 30 * minute),
      running("a", "new", 2, now - 20 * minute),
    ];
    expect(state.withinOwn("b/gb", 2000)).toBe(true);
    expect(state.fits("b/gb", 2000)).toBe(false);
    const plan = planReclaim(state, "b/gb", 2000, pods, now);
    expect(plan.evict.map((r) => r.pod.metadata?.name)).toEqual(["new"]);
    // For 3 GPUs the next newest goes too; the oldest stays.
    expect(planReclaim(state, "b/gb", 3000, pods, now).evict.map((r) => r.pod.metadata?.name)).toEqual([
      "new",
      "mid",
    ]);
    // A 1-GPU ask also takes "new": newest first, whatever its size.
    expect(planReclaim(state, "b/gb", 1000, pods, now).evict.map((r) => r.pod.metadata?.name)).toEqual([
      "new",
    ]);
  });

  it("waits for minRuntime, and says when to decide again", () => {
    const state = new CohortState([
      member("a", { maxGPUs: 2, reclaim: { minRuntime: "10m" } }, 4),
      member("b", { maxGPUs: 2 }, 0),
    ]);
    const young = running("a", "young", 2, now - 4 * minute);
    const plan = planReclaim(state, "b/gb", 2000, [young], now);
    expect(plan.evict).toEqual([]);
    expect(plan.retryAt).toBe(now + 6 * minute);
    expect(planReclaim(state, "b/gb", 2000, [young], now + 6 * minute).evict).toEqual([young]);
    // Strictly newest first: an older pod that has run long enough is not taken instead.
    const old = running("a", "old", 2, now - 60 * minute);
    expect(planReclaim(state, "b/gb", 2000, [old, young], now)).toMatchObject({
      evict: [],
      retryAt: now + 6 * minute,
    });
  });

  it("never reclaims a member below its own maxGPUs, nor evicts when it would not be enough", () => {
    // The cohort is full (6/6): a borrowed 1 GPU, and holds it with a 2-GPU pod (newest) and a 1-GPU pod.
    const state = new CohortState([
      member("a", { maxGPUs: 2 }, 3),
      member("b", { maxGPUs: 2 }, 1),
      member("c", { maxGPUs: 2 }, 2),
    ]);
    expect(state.withinOwn("c/gb", 1000)).toBe(false);
    const pods = [running("a", "a1", 1, now - 3 * minute), running("a", "a2", 2, now - minute)];
    expect(planReclaim(state, "b/gb", 1000, pods, now).evict.map((r) => r.pod.metadata?.name)).toEqual([
      "a2",
    ]);
    // After a2, a is within its own maxGPUs: a1 is not reclaimed, so b's 2 GPUs cannot be had: none evicted.
    const full = new CohortState([
      member("a", { maxGPUs: 2 }, 3),
      member("b", { maxGPUs: 2 }, 0),
      member("c", { maxGPUs: 2 }, 3),
    ]);
    expect(
      planReclaim(
        full,
        "b/gb",
        2000,
        [running("a", "a2", 1, now - minute), running("a", "a1", 2, now - 3 * minute)],
        now,
      ).evict,
    ).toEqual([]);
  });

  it("never evicts the pods of a Report budget over its cap: it did not borrow", () => {
    const state = new CohortState([
      member("r", { maxGPUs: 2, enforcement: "Report" }, 4),
      member("b", { maxGPUs: 2 }, 0),
    ]);
    expect(state.fits("b/gb", 1000)).toBe(false);
    const r = { ...running("r", "over", 2, now - 60 * minute), member: "r/gb" };
    expect(planReclaim(state, "b/gb", 1000, [r], now).evict).toEqual([]);
  });

  it("counts pods already terminating as freed: evicts nothing more", () => {
    const state = new CohortState([
      member("a", { maxGPUs: 2 }, 4, { terminating: 2 }),
      member("b", { maxGPUs: 2 }, 0),
    ]);
    const plan = planReclaim(state, "b/gb", 2000, [running("a", "other", 2, now - minute)], now);
    expect(plan).toMatchObject({ evict: [], waitingForTerminations: true });
  });
});

describe("durations and start times", () => {
  it("reads minRuntime as a Go duration, 0 when absent", () => {
    expect(minRuntimeMs(budget("a", { maxGPUs: 1, reclaim: { minRuntime: "1m30s" } }))).toBe(90_000);
    expect(minRuntimeMs(budget("a", { maxGPUs: 1 }))).toBe(0);
  });

  it("takes a pod's start from its status, else its release, else its creation", () => {
    const pod = (status: Pod["status"]): Pod => ({
      metadata: { name: "p", creationTimestamp: "2026-01-01T10:00:00Z" },
      status,
    });
    expect(startedAt(pod({ startTime: "2026-01-01T11:00:00Z" }), "q")).toBe(
      Date.parse("2026-01-01T11:00:00Z"),
    );
    expect(
      startedAt(
        pod({ conditions: [{ type: "q", status: "False", lastTransitionTime: "2026-01-01T10:30:00Z" }] }),
        "q",
      ),
    ).toBe(Date.parse("2026-01-01T10:30:00Z"));
    expect(startedAt(pod(undefined), "q")).toBe(Date.parse("2026-01-01T10:00:00Z"));
  });
});
