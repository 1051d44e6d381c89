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
import {
  type GangOf,
  POD_GROUP_LABEL,
  planRelease,
  QUEUE_GATE,
  QUEUED_AT_ANNOTATION,
  queueBudget,
  queueLine,
} from "./queue.js";

const GPU = "nvidia.com/gpu";

function pod(
  name: string,
  gpus: number,
  options: { gated?: boolean; priority?: number; at?: number; group?: string } = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: "team",
      uid: `uid-${name}`,
      labels: options.group ? { [POD_GROUP_LABEL]: options.group } : {},
      annotations:
        options.at === undefined ? {} : { [QUEUED_AT_ANNOTATION]: new Date(options.at).toISOString() },
    },
    spec: {
      containers: [{ name: "main", image: "busybox", resources: { limits: { [GPU]: String(gpus) } } }],
      ...(options.gated === false ? {} : { schedulingGates: [{ name: QUEUE_GATE }] }),
      ...(options.priority === undefined ? {} : { priority: options.priority }),
    },
  };
}

function budget(maxGPUs: number): GPUBudget {
  return {
    apiVersion: "capacity.lab.example.com/v1alpha1",
    kind: "GPUBudget",
    metadata: { name: "queue", namespace: "team" },
    spec: { maxGPUs, enforcement: "Queue" },
  };
}

const sizes: Record<string, number> = { gang: 4 };
const gangOf = (p: Pod): GangOf | undefined => {
  const group = p.metadata?.labels?.[POD_GROUP_LABEL];
  return group ? { key: `group/${group}`, size: sizes[group] ?? 1 } : undefined;
};

function plan(pods: Pod[], maxGPUs: number): string[] {
  const budgets = [queueBudget(budget(maxGPUs), pods)];
  return planRelease(queueLine(pods, budgets, gangOf), budgets).flatMap((u) =>
    u.pods.map((p) => p.metadata?.name ?? ""),
  );
}

describe("the Queue line", () => {
  it("releases by arrival while pods fit, and a gated pod holds nothing", () => {
    const pods = [
      pod("running", 1, { gated: false }),
      pod("b", 1, { at: 2000 }),
      pod("a", 1, { at: 1000 }),
      pod("c", 1, { at: 3000 }),
    ];
    expect(queueBudget(budget(3), pods).countedMilli).toBe(1000);
    expect(plan(pods, 3)).toEqual(["a", "b"]);
  });

  it("puts higher priority first, whatever its arrival", () => {
    const pods = [pod("early", 1, { at: 1000 }), pod("urgent", 1, { at: 5000, priority: 1000 })];
    expect(plan(pods, 1)).toEqual(["urgent"]);
  });

  it("is strict: a large pod at the head is not overtaken by smaller ones behind it", () => {
    const pods = [
      pod("running", 2, { gated: false }),
      pod("large", 3, { at: 1000 }),
      pod("small", 1, { at: 2000 }),
    ];
    expect(plan(pods, 4)).toEqual([]);
    expect(plan(pods, 5)).toEqual(["large"]);
  });

  it("releases a gang of 4 whole or not at all, and only once all four exist", () => {
    const gang = (n: number) =>
      Array.from({ length: n }, (_, i) => pod(`g${i}`, 1, { at: 1000 + i, group: "gang" }));
    expect(plan(gang(3), 8)).toEqual([]);
    expect(plan(gang(4), 3)).toEqual([]);
    expect(plan(gang(4), 4)).toEqual(["g0", "g1", "g2", "g3"]);
  });

  it("passes over a gang still gathering its pods, and releases a replacement in a gang already running", () => {
    const gathering = [pod("g0", 1, { at: 1000, group: "gang" }), pod("solo", 1, { at: 2000 })];
    expect(plan(gathering, 8)).toEqual(["solo"]);
    const replacing = [
      ...[1, 2, 3].map((i) => pod(`r${i}`, 1, { gated: false, group: "gang" })),
      pod("replacement", 1, { at: 3000, group: "gang" }),
    ];
    expect(plan(replacing, 4)).toEqual(["replacement"]);
  });

  it("counts reservations of pods admitted past the line that the list does not show yet", () => {
    const b = budget(2);
    b.status = {
      reservations: [
        {
          pod: "bound",
          podUID: "uid-bound",
          milliGPUs: 1000,
          expiresAt: new Date(Date.now() + 30_000).toISOString(),
        },
      ],
    };
    const pods = [pod("a", 1, { at: 1000 }), pod("b", 1, { at: 2000 })];
    const budgets = [queueBudget(b, pods)];
    expect(planRelease(queueLine(pods, budgets, gangOf), budgets).map((u) => u.key)).toEqual(["pod/a"]);
  });
});
