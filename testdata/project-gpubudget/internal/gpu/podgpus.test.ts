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

import { deepFreeze, type Pod } from "@kbts/runtime";
import { describe, expect, it } from "vitest";
import {
  budgetUsage,
  isCounted,
  podGPUs,
  podMilliGPUs,
  quantityMilli,
  quantityValue,
  selectorMatches,
  slimPod,
} from "./podgpus.js";

const GPU = "nvidia.com/gpu";

type C = {
  name: string;
  restartPolicy?: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
};

function pod(
  name: string,
  opts: { containers?: C[]; init?: C[]; phase?: string; labels?: Record<string, string> } = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "team-a", labels: opts.labels },
    spec: { containers: opts.containers ?? [], initContainers: opts.init },
    status: { phase: opts.phase ?? "Pending" },
  } as Pod;
}

const req = (n: string): C["resources"] => ({ requests: { [GPU]: n } });
const lim = (n: string, resource = GPU): C["resources"] => ({ limits: { [resource]: n } });

describe("quantityValue", () => {
  it("reads plain, suffixed and exponent quantities, rounding up like Quantity.Value()", () => {
    expect(quantityValue("6")).toBe(6);
    expect(quantityValue(2)).toBe(2);
    expect(quantityValue("1k")).toBe(1000);
    expect(quantityValue("1Ki")).toBe(1024);
    expect(quantityValue("2e2")).toBe(200);
    expect(quantityValue("500m")).toBe(1);
    expect(quantityValue(undefined)).toBe(0);
  });
  it("refuses text that is not a quantity", () => {
    expect(() => quantityValue("six")).toThrow(/invalid quantity "six"/);
  });
});

describe("podGPUs (the scheduler's rule)", () => {
  it("sums the containers", () => {
    expect(
      podGPUs(
        pod("p", {
          containers: [
            { name: "a", resources: req("2") },
            { name: "b", resources: req("3") },
          ],
        }),
        GPU,
      ),
    ).toBe(5);
  });

  it("uses limits when requests are absent", () => {
    expect(podGPUs(pod("p", { containers: [{ name: "a", resources: lim("6") }] }), GPU)).toBe(6);
  });

  it("prefers the request when both are set", () => {
    expect(
      podGPUs(
        pod("p", {
          containers: [{ name: "a", resources: { requests: { [GPU]: "1" }, limits: { [GPU]: "1" } } }],
        }),
        GPU,
      ),
    ).toBe(1);
  });

  it("counts an init container larger than the containers", () => {
    const p = pod("p", {
      init: [{ name: "warmup", resources: req("4") }],
      containers: [{ name: "a", resources: req("1") }],
    });
    expect(podGPUs(p, GPU)).toBe(4);
  });

  it("does not add init containers to each other: they run one after another", () => {
    const p = pod("p", {
      init: [
        { name: "i1", resources: req("2") },
        { name: "i2", resources: req("3") },
      ],
      containers: [{ name: "a", resources: req("1") }],
    });
    expect(podGPUs(p, GPU)).toBe(3);
  });

  it("adds restartable (sidecar) init containers to the containers and to later init containers", () => {
    const p = pod("p", {
      init: [
        { name: "sidecar", restartPolicy: "Always", resources: req("1") },
        { name: "setup", resources: req("3") },
      ],
      containers: [{ name: "a", resources: req("1") }],
    });
    // containers: 1 + sidecar 1 = 2; init peak: setup 3 + sidecar 1 = 4
    expect(podGPUs(p, GPU)).toBe(4);
    const q = pod("q", {
      init: [{ name: "sidecar", restartPolicy: "Always", resources: req("2") }],
      containers: [{ name: "a", resources: req("2") }],
    });
    expect(podGPUs(q, GPU)).toBe(4);
  });

  it("ignores other resources", () => {
    expect(
      podGPUs(
        pod("p", { containers: [{ name: "a", resources: { requests: { cpu: "2", "amd.com/gpu": "2" } } }] }),
        GPU,
      ),
    ).toBe(0);
    expect(
      podGPUs(
        pod("p", { containers: [{ name: "a", resources: { requests: { "amd.com/gpu": "2" } } }] }),
        "amd.com/gpu",
      ),
    ).toBe(2);
  });

  it("counts deep-frozen pods (as the cache lists them uncopied) per resource list, as often as asked", () => {
    const frozen = deepFreeze(
      pod("p", { containers: [{ name: "a", resources: { requests: { [GPU]: "2", "amd.com/gpu": "1" } } }] }),
    );
    for (let i = 0; i < 3; i++) {
      expect(podMilliGPUs(frozen, [{ name: GPU }])).toBe(2000);
      expect(podMilliGPUs(frozen, [{ name: "amd.com/gpu", weight: "0.5" }])).toBe(500);
      expect(
        budgetUsage([frozen], { resources: [{ name: GPU }, { name: "amd.com/gpu", weight: 2 }] })
          .allocatedMilli,
      ).toBe(4000);
    }
    // A new version of the pod is a new object, counted afresh.
    expect(
      podMilliGPUs(deepFreeze(pod("p", { containers: [{ name: "a", resources: req("5") }] })), [
        { name: GPU },
      ]),
    ).toBe(5000);
  });
});

describe("selectorMatches", () => {
  it("matches everything without a selector", () => {
    expect(selectorMatches(undefined, undefined)).toBe(true);
  });
  it("applies matchLabels and every matchExpressions operator", () => {
    const labels = { team: "ml", tier: "train" };
    expect(selectorMatches({ matchLabels: { team: "ml" } }, labels)).toBe(true);
    expect(selectorMatches({ matchLabels: { team: "web" } }, labels)).toBe(false);
    expect(
      selectorMatches(
        { matchExpressions: [{ key: "tier", operator: "In", values: ["train", "eval"] }] },
        labels,
      ),
    ).toBe(true);
    expect(
      selectorMatches({ matchExpressions: [{ key: "tier", operator: "NotIn", values: ["train"] }] }, labels),
    ).toBe(false);
    expect(selectorMatches({ matchExpressions: [{ key: "gpu", operator: "Exists" }] }, labels)).toBe(false);
    expect(selectorMatches({ matchExpressions: [{ key: "gpu", operator: "DoesNotExist" }] }, labels)).toBe(
      true,
    );
  });
});

describe("budgetUsage", () => {
  const six = { name: "a", resources: lim("6") };
  const gpus = { resources: [{ name: GPU }] };
  it("skips Succeeded and Failed pods and counts Pending, Running, Unknown and terminating ones", () => {
    const terminating = pod("t", { containers: [six] });
    terminating.metadata = {
      ...terminating.metadata,
      deletionTimestamp: "2026-01-01T00:00:30Z",
      deletionGracePeriodSeconds: 30,
    };
    const usage = budgetUsage(
      [
        pod("pending", { containers: [six] }),
        pod("running", { containers: [six], phase: "Running" }),
        pod("lost", { containers: [six], phase: "Unknown" }),
        pod("done", { containers: [six], phase: "Succeeded" }),
        pod("failed", { containers: [six], phase: "Failed" }),
        terminating,
      ],
      gpus,
      { now: Date.parse("2026-01-01T00:00:00Z"), podNames: true },
    );
    expect(usage).toMatchObject({
      allocatedMilli: 24000,
      podCount: 4,
      podNames: ["lost", "pending", "running", "t"],
    });
    // It stops counting at deletionTimestamp + grace, and says when that is.
    expect(usage.nextChangeAt).toBe(Date.parse("2026-01-01T00:01:00Z"));
  });

  it("stops counting a pod stuck terminating past its deletion timestamp plus grace (ResourceQuota's rule)", () => {
    const stuck = pod("stuck", { containers: [six], phase: "Unknown" });
    stuck.metadata = {
      ...stuck.metadata,
      deletionTimestamp: "2026-01-01T00:00:30Z",
      deletionGracePeriodSeconds: 30,
    };
    expect(isCounted(stuck, Date.parse("2026-01-01T00:00:59Z"))).toBe(true);
    expect(isCounted(stuck, Date.parse("2026-01-01T00:01:01Z"))).toBe(false);
    expect(budgetUsage([stuck], gpus, { now: Date.parse("2026-01-01T00:01:01Z") }).allocatedMilli).toBe(0);
  });

  it("counts only the pods the selector matches", () => {
    const usage = budgetUsage(
      [
        pod("ml", { containers: [six], labels: { team: "ml" } }),
        pod("web", { containers: [six], labels: { team: "web" } }),
      ],
      { ...gpus, selector: { matchLabels: { team: "ml" } } },
      { podNames: true },
    );
    expect(usage.allocatedMilli).toBe(6000);
    expect(usage.podNames).toEqual(["ml"]);
  });

  it("lists no pod names unless asked (utilization off)", () => {
    expect(budgetUsage([pod("p", { containers: [six] })], gpus).podNames).toEqual([]);
  });

  it("weighs each resource: MIG slices count as fractions of a GPU", () => {
    const slices = pod("mig", {
      containers: [{ name: "a", resources: lim("3", "nvidia.com/mig-1g.10gb") }, six],
    });
    const usage = budgetUsage([slices], {
      resources: [{ name: GPU }, { name: "nvidia.com/mig-1g.10gb", weight: "125m" }],
    });
    expect(usage.allocatedMilli).toBe(6375);
  });

  it("counts nothing for a pod's resourceClaims: the claims themselves are counted (claims.ts), once", () => {
    const claiming = pod("dra", { containers: [{ name: "a" }] });
    (claiming.spec as unknown as Record<string, unknown>).resourceClaims = [
      { name: "gpu", resourceClaimName: "c" },
    ];
    expect(budgetUsage([claiming], gpus)).toMatchObject({ allocatedMilli: 0, podCount: 0 });
  });

  it("does not count pods that hold no GPU", () => {
    expect(budgetUsage([pod("cpu-only", { containers: [{ name: "a" }] })], gpus)).toMatchObject({
      allocatedMilli: 0,
      podCount: 0,
    });
  });
});

describe("quantityMilli", () => {
  it("reads weights exactly in thousandths", () => {
    expect(quantityMilli("0.125")).toBe(125);
    expect(quantityMilli("125m")).toBe(125);
    expect(quantityMilli("1")).toBe(1000);
    expect(quantityMilli(2)).toBe(2000);
  });
});

describe("slimPod", () => {
  it("keeps what counting needs and drops the rest", () => {
    const full = pod("p", {
      init: [{ name: "s", restartPolicy: "Always", resources: req("1") }],
      containers: [{ name: "a", resources: lim("2") }],
      labels: { team: "ml" },
      phase: "Running",
    });
    (full.spec as unknown as Record<string, unknown>).volumes = [{ name: "big" }];
    const slim = slimPod(full);
    expect(podGPUs(slim, GPU)).toBe(podGPUs(full, GPU));
    expect(slim.metadata?.labels).toEqual({ team: "ml" });
    expect(slim.status).toEqual({ phase: "Running" });
    expect((slim.spec as unknown as Record<string, unknown>).volumes).toBeUndefined();
  });
});
