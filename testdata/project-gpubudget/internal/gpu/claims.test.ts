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

import { describe, expect, it } from "vitest";
import {
  ALLOCATION_RESULTS_MAX_SIZE,
  budgetClaimUsage,
  claimDevices,
  claimMilliGPUs,
  type DeviceRequest,
  describeBudget,
  EXTENDED_RESOURCE_CLAIM_ANNOTATION,
  type ResourceClaim,
} from "./claims.js";

const GPU = "gpu.nvidia.com";
const MIG = "mig.nvidia.com";

function claim(requests: DeviceRequest[], metadata: ResourceClaim["metadata"] = {}): ResourceClaim {
  return {
    apiVersion: "resource.k8s.io/v1",
    kind: "ResourceClaim",
    metadata: { name: "c", namespace: "ns", ...metadata },
    spec: { devices: { requests } },
  };
}

describe("claimDevices (ResourceQuota's <class>.deviceclass.resource.k8s.io/devices)", () => {
  it.each<[string, DeviceRequest[], Record<string, number>]>([
    [
      "an exact count as asked",
      [{ name: "a", exactly: { deviceClassName: GPU, allocationMode: "ExactCount", count: 3 } }],
      { [GPU]: 3 },
    ],
    [
      "ExactCount with no count is one device",
      [{ name: "a", exactly: { deviceClassName: GPU } }],
      { [GPU]: 1 },
    ],
    [
      "allocationMode All at the most a claim can hold",
      [{ name: "a", exactly: { deviceClassName: GPU, allocationMode: "All" } }],
      { [GPU]: ALLOCATION_RESULTS_MAX_SIZE },
    ],
    [
      "an unknown mode counts nothing",
      [{ name: "a", exactly: { deviceClassName: GPU, allocationMode: "Some", count: 4 } }],
      { [GPU]: 0 },
    ],
    [
      "requests add up per class",
      [
        { name: "a", exactly: { deviceClassName: GPU, count: 2 } },
        { name: "b", exactly: { deviceClassName: GPU } },
        { name: "c", exactly: { deviceClassName: MIG, count: 7 } },
      ],
      { [GPU]: 3, [MIG]: 7 },
    ],
    [
      "firstAvailable at its largest alternative per class",
      [
        {
          name: "a",
          firstAvailable: [
            { name: "big", deviceClassName: GPU, count: 4 },
            { name: "small", deviceClassName: GPU, count: 1 },
            { name: "slices", deviceClassName: MIG, count: 2 },
          ],
        },
      ],
      { [GPU]: 4, [MIG]: 2 },
    ],
    [
      "firstAvailable with All",
      [
        {
          name: "a",
          firstAvailable: [
            { name: "one", deviceClassName: GPU },
            { name: "all", deviceClassName: GPU, allocationMode: "All" },
          ],
        },
      ],
      { [GPU]: ALLOCATION_RESULTS_MAX_SIZE },
    ],
    ["no requests", [], {}],
  ])("%s", (_, requests, want) => {
    expect(Object.fromEntries(claimDevices(claim(requests)))).toEqual(want);
  });

  it("does not count a claim made for a pod's DRA extended resource (the pod's resources are counted)", () => {
    const requests = [{ name: "container-0-request-0", exactly: { deviceClassName: GPU, count: 2 } }];
    const annotations = { [EXTENDED_RESOURCE_CLAIM_ANNOTATION]: "true" };
    const owner = { apiVersion: "v1", kind: "Pod", name: "p", uid: "u", controller: true };
    const extended = claim(requests, { annotations, ownerReferences: [owner] });
    expect(claimDevices(extended).size).toBe(0);
    expect(claimMilliGPUs(extended, [{ name: GPU }])).toBe(0);
    // The annotation alone, which any tenant can set, is not enough.
    expect(claimMilliGPUs(claim(requests, { annotations }), [{ name: GPU }])).toBe(2000);
    expect(
      claimMilliGPUs(claim(requests, { annotations, ownerReferences: [{ ...owner, controller: false }] }), [
        { name: GPU },
      ]),
    ).toBe(2000);
  });
});

describe("claimMilliGPUs", () => {
  it("weighs each class's devices and ignores classes the budget does not list", () => {
    const c = claim([
      { name: "a", exactly: { deviceClassName: GPU, count: 2 } },
      { name: "b", exactly: { deviceClassName: MIG, count: 3 } },
      { name: "n", exactly: { deviceClassName: "nic.example.com" } },
    ]);
    expect(claimMilliGPUs(c, [{ name: GPU }, { name: MIG, weight: "125m" }])).toBe(2375);
    expect(claimMilliGPUs(c, [{ name: MIG, weight: "0.5" }])).toBe(1500);
    expect(claimMilliGPUs(c, [])).toBe(0);
  });
});

describe("budgetClaimUsage", () => {
  it("counts selected claims of its classes, and reports those of other classes as uncounted", () => {
    const claims = [
      claim([{ name: "a", exactly: { deviceClassName: GPU, count: 2 } }], {
        name: "ml",
        labels: { team: "ml" },
      }),
      claim([{ name: "a", exactly: { deviceClassName: GPU, count: 5 } }], {
        name: "web",
        labels: { team: "web" },
      }),
      claim([{ name: "a", exactly: { deviceClassName: "nic.example.com" } }], {
        name: "nic",
        labels: { team: "ml" },
      }),
    ];
    expect(
      budgetClaimUsage(claims, { deviceClasses: [{ name: GPU }], selector: { matchLabels: { team: "ml" } } }),
    ).toEqual({
      allocatedMilli: 2000,
      claimCount: 1,
      uncountedClaims: 1,
    });
    expect(budgetClaimUsage(claims, { deviceClasses: [{ name: GPU }] })).toEqual({
      allocatedMilli: 7000,
      claimCount: 2,
      uncountedClaims: 1,
    });
    expect(budgetClaimUsage(claims, { deviceClasses: [] })).toEqual({
      allocatedMilli: 0,
      claimCount: 0,
      uncountedClaims: 3,
    });
  });
});

describe("describeBudget", () => {
  it("names the resources, and the DeviceClasses when there are any", () => {
    expect(describeBudget({})).toBe("nvidia.com/gpu");
    expect(describeBudget({ deviceClasses: [{ name: GPU }, { name: MIG, weight: "0.125" }] })).toBe(
      "GPUs (nvidia.com/gpu, DeviceClass gpu.nvidia.com, DeviceClass mig.nvidia.com×0.125)",
    );
  });
});
