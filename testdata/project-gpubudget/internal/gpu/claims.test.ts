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
import {
  ALLOCATION_RESULTS_MAX_SIZE,
  budgetClaimUsage,
  claimCountedMilli,
  claimDevices,
  claimMilliGPUs,
  claimOwners,
  type DeviceRequest,
  describeBudget,
  EXTENDED_RESOURCE_CLAIM_ANNOTATION,
  extendedResourceClaimPod,
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
});

// KEP-5004: the scheduler makes a claim for a pod's extended resources (here nvidia.com/gpu backed by the
// DeviceClass GPU), annotated and controlled by the pod, and then names it in the pod's status.
describe("a claim made for a pod's DRA extended resources", () => {
  const requests = [{ name: "container-0-request-0", exactly: { deviceClassName: GPU, count: 2 } }];
  const annotations = { [EXTENDED_RESOURCE_CLAIM_ANNOTATION]: "true" };
  const ownerRef = { apiVersion: "v1", kind: "Pod", name: "p", uid: "pod-uid", controller: true };
  const extended = (name: string, created = "2026-01-01T00:00:00Z", ownerReferences = [ownerRef]) =>
    claim(requests, { name, uid: `${name}-uid`, creationTimestamp: created, annotations, ownerReferences });
  const gpuPod = (gpus: number, status: Pod["status"] = { phase: "Pending" }): Pod => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "ns", uid: "pod-uid" },
    spec: {
      containers: [{ name: "main", image: "x", resources: { limits: { "nvidia.com/gpu": String(gpus) } } }],
    },
    status,
  });
  const both = { deviceClasses: [{ name: GPU }], resources: [{ name: "nvidia.com/gpu" }] };
  const named = (claimName: string) => ({
    phase: "Running" as const,
    extendedResourceClaimStatus: { resourceClaimName: claimName, requestMappings: [] },
  });

  it("is verified as kube-apiserver's quota evaluator verifies it, from the pod it names", () => {
    const c = extended("p-gpu");
    const pod = gpuPod(2);
    expect(extendedResourceClaimPod(c, claimOwners([pod], [c]))).toBe(pod); // status not written yet, only claim
    const p2 = gpuPod(2, named("p-gpu"));
    expect(extendedResourceClaimPod(c, claimOwners([p2], [c]))).toBe(p2);
    // Not verified: the pod names another claim, is gone, has another uid or name, or the ref is no controller.
    expect(extendedResourceClaimPod(c, claimOwners([gpuPod(2, named("other"))], [c]))).toBeUndefined();
    expect(extendedResourceClaimPod(c, claimOwners([], [c]))).toBeUndefined();
    expect(
      extendedResourceClaimPod(
        extended("x", undefined, [{ ...ownerRef, uid: "else" }]),
        claimOwners([pod], []),
      ),
    ).toBeUndefined();
    expect(
      extendedResourceClaimPod(
        extended("x", undefined, [{ ...ownerRef, name: "q" }]),
        claimOwners([pod], []),
      ),
    ).toBeUndefined();
    expect(
      extendedResourceClaimPod(
        extended("x", undefined, [{ ...ownerRef, controller: false }]),
        claimOwners([pod], []),
      ),
    ).toBeUndefined();
    expect(
      extendedResourceClaimPod(claim(requests, { ownerReferences: [ownerRef] }), claimOwners([pod], [])),
    ).toBeUndefined();
    // With no status yet, only the pod's earliest claim (then the lowest name) is its own.
    const early = extended("b", "2026-01-01T00:00:00Z");
    const late = extended("a", "2026-01-01T00:00:05Z");
    const twin = extended("c", "2026-01-01T00:00:00Z");
    const owners = claimOwners([pod], [early, late, twin]);
    expect(extendedResourceClaimPod(early, owners)).toBe(pod);
    expect(extendedResourceClaimPod(late, owners)).toBeUndefined();
    expect(extendedResourceClaimPod(twin, owners)).toBeUndefined();
  });

  it("adds only what its devices exceed the pod's own count under the budget, so nothing counts twice", () => {
    const c = extended("p-gpu");
    const pod = gpuPod(2, named("p-gpu"));
    expect(claimCountedMilli(c, both, pod)).toBe(0); // the pod's 2 nvidia.com/gpu are these 2 devices
    expect(claimCountedMilli(c, { ...both, resources: [] }, pod)).toBe(2000); // a budget of the class alone
    expect(claimCountedMilli(c, { ...both, deviceClasses: [] }, pod)).toBe(0);
    expect(claimCountedMilli(c, both, gpuPod(1, named("p-gpu")))).toBe(1000);
    expect(claimCountedMilli(c, both, gpuPod(2, { phase: "Succeeded" }))).toBe(2000);
    // Unverified, it counts in full: annotating a claim and naming a pod hides nothing.
    expect(claimCountedMilli(c, both, undefined)).toBe(2000);
    const pods = [gpuPod(2, named("p-gpu"))];
    expect(budgetClaimUsage([c], pods, both)).toEqual({
      allocatedMilli: 0,
      claimCount: 0,
      uncountedClaims: 0,
    });
    expect(budgetClaimUsage([c], [], both)).toEqual({
      allocatedMilli: 2000,
      claimCount: 1,
      uncountedClaims: 0,
    });
    const forged = extended("p-gpu-2", "2026-01-01T00:00:09Z");
    expect(budgetClaimUsage([c, forged], [gpuPod(2)], both)).toEqual({
      allocatedMilli: 2000,
      claimCount: 1,
      uncountedClaims: 0,
    });
  });

  it("once the pod names it, counts each request by the resource it serves (requestMappings)", () => {
    // The pod asks for 1 nvidia.com/gpu from a device plugin and 2 example.com/gpu backed by DRA: the
    // claim's one request serves example.com/gpu only.
    const c = claim([{ name: "container-0-request-0", exactly: { deviceClassName: GPU, count: 2 } }], {
      name: "p-gpu",
      annotations,
      ownerReferences: [ownerRef],
    });
    const pod: Pod = {
      ...gpuPod(1),
      status: {
        phase: "Running",
        extendedResourceClaimStatus: {
          resourceClaimName: "p-gpu",
          requestMappings: [
            { containerName: "main", resourceName: "example.com/gpu", requestName: "container-0-request-0" },
          ],
        },
      },
    };
    // The budget counts nvidia.com/gpu through the pod (1) and the DeviceClass through the claim (2): 3 GPUs.
    expect(claimCountedMilli(c, both, pod)).toBe(2000);
    // A budget that also counts example.com/gpu has the claim's GPUs through the pod already.
    expect(
      claimCountedMilli(
        c,
        { ...both, resources: [{ name: "nvidia.com/gpu" }, { name: "example.com/gpu" }] },
        pod,
      ),
    ).toBe(0);
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
    const rule = { deviceClasses: [{ name: GPU }], resources: [] };
    expect(budgetClaimUsage(claims, [], { ...rule, selector: { matchLabels: { team: "ml" } } })).toEqual({
      allocatedMilli: 2000,
      claimCount: 1,
      uncountedClaims: 1,
    });
    expect(budgetClaimUsage(claims, [], rule)).toEqual({
      allocatedMilli: 7000,
      claimCount: 2,
      uncountedClaims: 1,
    });
    expect(budgetClaimUsage(claims, [], { ...rule, deviceClasses: [] })).toEqual({
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
