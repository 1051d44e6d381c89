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
import type { GPUBudget } from "../../api/v1alpha1/gpubudget_types.js";
import { podMilliGPUs, slimPod } from "../gpu/podgpus.js";
import {
  finalizerWanted,
  formatGPUHours,
  gpuHoursState,
  gpuHoursToMilliGPUSeconds,
  nextCrossingAt,
  parseWindow,
  periodStart,
  updateLedger,
  windowStart,
} from "./ledger.js";

const GPU = "nvidia.com/gpu";
const H = 3_600_000;
const T0 = Date.UTC(2026, 11, 2, 10, 0, 0); // a Wednesday, 10:00 UTC
const iso = (ms: number) => new Date(ms).toISOString();

function pod(
  name: string,
  gpus: number,
  o: { start?: number; phase?: string; finished?: number; deleted?: number } = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: "team",
      uid: `uid-${name}`,
      ...(o.deleted === undefined
        ? {}
        : { deletionTimestamp: iso(o.deleted), deletionGracePeriodSeconds: 0 }),
    },
    spec: {
      containers: [{ name: "main", image: "busybox", resources: { limits: { [GPU]: String(gpus) } } }],
    },
    status: {
      phase: o.phase ?? (o.start === undefined ? "Pending" : "Running"),
      ...(o.start === undefined ? {} : { startTime: iso(o.start) }),
      ...(o.finished === undefined
        ? {}
        : {
            containerStatuses: [
              {
                name: "main",
                image: "busybox",
                ready: false,
                restartCount: 0,
                imageID: "",
                state: { terminated: { exitCode: 0, finishedAt: iso(o.finished) } },
              },
            ],
          }),
    },
  } as Pod;
}

const milliGPUs = (p: Pod) => podMilliGPUs(p, [{ name: GPU, weight: "1" }]);

function ledgerAt(
  now: number,
  pods: Pod[],
  previous?: ReturnType<typeof updateLedger>["status"],
  window = "168h",
  limit = "10",
) {
  return updateLedger({ spec: { limit, window }, previous, pods, milliGPUs, gone: new Set(), now });
}

describe("GPU-hour windows", () => {
  it("reads rolling hours and calendar periods, and refuses anything else naming the field", () => {
    expect(parseWindow("168h")).toEqual({ rollingHours: 168 });
    expect(parseWindow("monthly")).toEqual({ calendar: "monthly" });
    expect(() => parseWindow("745h")).toThrow(
      /spec.gpuHours.window "745h": use a whole number of hours up to 744h/,
    );
    expect(() => parseWindow("7d")).toThrow(/spec.gpuHours.window/);
  });

  it("starts calendar periods in UTC: the day, the Monday, the first of the month", () => {
    const t = T0 + 5 * H + 123;
    expect(iso(periodStart({ calendar: "daily" }, t))).toBe("2026-12-02T00:00:00.000Z");
    expect(iso(periodStart({ calendar: "weekly" }, t))).toBe("2026-11-30T00:00:00.000Z");
    expect(iso(periodStart({ calendar: "monthly" }, t))).toBe("2026-12-01T00:00:00.000Z");
    expect(iso(windowStart({ rollingHours: 24 }, t))).toBe("2026-12-01T16:00:00.000Z");
  });

  it("reads limits as exact GPU-hours", () => {
    expect(gpuHoursToMilliGPUSeconds("0.5")).toBe(1_800_000);
    expect(gpuHoursToMilliGPUSeconds("12.25")).toBe(44_100_000);
    expect(() => gpuHoursToMilliGPUSeconds("1e3")).toThrow(/spec.gpuHours.limit "1e3"/);
    expect(formatGPUHours(44_100_000)).toBe("12.250");
  });
});

describe("the GPU-hour ledger", () => {
  it("charges a finished pod once, by the hours it ran in, and counts running pods live", () => {
    const done = pod("done", 2, { start: T0 - 30 * 60_000, phase: "Succeeded", finished: T0 + 15 * 60_000 });
    const running = pod("running", 1, { start: T0 });
    const pending = pod("pending", 4);
    const first = ledgerAt(T0 + 30 * 60_000, [done, running, pending]);
    // done: 2 GPUs × 45 min = 1.5 GPU-hours, 1 GPU-hour in 09:00 and 0.5 in 10:00; running: 0.5 GPU-hours so far.
    expect(first.status.periods).toEqual([
      { start: "2026-12-02T09:00:00Z", milliGPUSeconds: 2000 * 1800 },
      { start: "2026-12-02T10:00:00Z", milliGPUSeconds: 2000 * 900 },
    ]);
    expect(first.status.recordedPods).toEqual(["uid-done"]);
    expect(first.status.usedGPUHours).toBe("2.000");
    expect(first.status.remainingGPUHours).toBe("8.000");
    expect(first.runningMilliGPUs).toBe(1000);
    // The same pods seen again (a second leader, a restart) are not charged twice.
    const again = ledgerAt(T0 + 30 * 60_000, [done, running, pending], first.status);
    expect(again.status.periods).toEqual(first.status.periods);
    expect(again.usedMilliGPUSeconds).toBe(first.usedMilliGPUSeconds);
  });

  it("charges a deleted pod up to its deletion time once that has passed, and a pod never started nothing", () => {
    const killed = pod("killed", 1, { start: T0, deleted: T0 + 600_000 });
    const early = ledgerAt(T0 + 300_000, [killed]);
    expect(early.status.recordedPods).toBeUndefined();
    expect(early.nextChangeAt).toBe(T0 + 600_000);
    const late = ledgerAt(T0 + 900_000, [killed]);
    expect(late.usedMilliGPUSeconds).toBe(1000 * 600);
    expect(late.status.recordedPods).toEqual(["uid-killed"]);
    expect(ledgerAt(T0, [pod("never", 8, { deleted: T0 - 1000 })]).usedMilliGPUSeconds).toBe(0);
  });

  it("drops what slid out of a rolling window, keeps recorded uids until the pod is gone, and resets on a new period", () => {
    const done = pod("done", 1, { start: T0, phase: "Failed", finished: T0 + H });
    const charged = ledgerAt(T0 + H, [done], undefined, "2h");
    expect(charged.usedMilliGPUSeconds).toBe(3_600_000);
    const slid = ledgerAt(T0 + 2 * H, [done], charged.status, "2h");
    expect(slid.usedMilliGPUSeconds).toBe(0);
    expect(slid.status.recordedPods).toEqual(["uid-done"]);
    const gone = updateLedger({
      spec: { limit: "1", window: "2h" },
      previous: slid.status,
      pods: [],
      milliGPUs,
      gone: new Set(["uid-done"]),
      now: T0 + 2 * H,
    });
    expect(gone.status.recordedPods).toBeUndefined();
    const day = ledgerAt(T0 + H, [done], undefined, "daily");
    expect(ledgerAt(T0 + 14 * H + 1, [done], day.status, "daily").usedMilliGPUSeconds).toBe(0);
  });

  it("is Spent at the limit, NearLimit past the warning, and says when running pods will cross them", () => {
    const running = pod("running", 2, { start: T0 });
    const ledger = ledgerAt(T0 + 1.5 * H, [running], undefined, "168h", "4");
    expect(gpuHoursState(ledger)).toBe("WithinLimit"); // 3 of 4
    expect(gpuHoursState(ledger, 75)).toBe("NearLimit");
    // 2 GPUs reach 3.2 GPU-hours (80%) 6 minutes later, and 4 at 2h.
    expect(nextCrossingAt(ledger, 80, T0 + 1.5 * H)).toBe(T0 + 1.6 * H);
    expect(gpuHoursState(ledgerAt(T0 + 2 * H, [running], undefined, "168h", "4"))).toBe("Spent");
  });

  it("reads the same from the cache's slim pods (cmd/main.ts' transform) as from whole ones", () => {
    const pods = [
      pod("done", 2, { start: T0, phase: "Succeeded", finished: T0 + 600_000 }),
      pod("running", 1, { start: T0 }),
      pod("killed", 1, { start: T0, deleted: T0 + 60_000 }),
    ];
    for (const p of pods)
      p.metadata = { ...p.metadata, finalizers: ["other", "capacity.lab.example.com/gpu-hours"] };
    const slim = pods.map((p) => slimPod(p));
    expect(ledgerAt(T0 + H, slim)).toEqual(ledgerAt(T0 + H, pods));
    expect(ledgerAt(T0 + H, slim).status.recordedPods).toEqual(["uid-done", "uid-killed"]);
    expect(slim.map((p) => p.metadata?.finalizers)).toEqual(pods.map((p) => p.metadata?.finalizers));
  });

  it("wants the finalizer on a pod until every GPU-hour budget counting it has charged it", () => {
    const p = pod("p", 1, { start: T0 });
    const b = (recorded: string[]): GPUBudget => ({
      metadata: { name: "b", namespace: "team" },
      spec: { maxGPUs: 4, gpuHours: { limit: "1", window: "daily" } },
      status: {
        gpuHours: {
          usedGPUHours: "0",
          remainingGPUHours: "1",
          windowStart: iso(T0),
          observedAt: iso(T0),
          recordedPods: recorded,
        },
      },
    });
    expect(finalizerWanted(p, [b([])])).toBe(true);
    expect(finalizerWanted(p, [b(["uid-p"])])).toBe(false);
    expect(finalizerWanted(p, [b(["uid-p"]), b([])])).toBe(true);
    expect(finalizerWanted(p, [{ ...b([]), spec: { maxGPUs: 4 } }])).toBe(false);
    expect(finalizerWanted(pod("never", 1, { deleted: T0 }), [b([])])).toBe(false);
  });
});
