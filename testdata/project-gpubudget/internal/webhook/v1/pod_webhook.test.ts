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

// Unit tests of the Pod validator on the fake client (no cluster). The webhook server itself, with
// the API server calling it, is covered by internal/controller/gpubudget_controller.test.ts.
import { Pod } from "@kbts/runtime";
import { createFakeClient } from "@kbts/runtime/fake";
import { beforeEach, describe, expect, it } from "vitest";
import type { GPUBudget } from "../../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../../api/v1alpha1/zz_generated.kinds.js";
import { BUDGET_NAMESPACE_INDEX } from "../../controller/gpubudget_controller.js";
import { PodCustomValidator } from "./pod_webhook.js";

const NS = "team-a";
const GPU = "nvidia.com/gpu";

function gpuPod(name: string, gpus: number, labels?: Record<string, string>): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: NS, labels },
    spec: {
      containers: [{ name: "main", image: "busybox", resources: { limits: { [GPU]: String(gpus) } } }],
    },
  };
}

function budget(name: string, maxGPUs: number, spec: Partial<GPUBudget["spec"]> = {}): GPUBudget {
  return {
    apiVersion: "capacity.lab.example.com/v1alpha1",
    kind: "GPUBudget",
    metadata: { name, namespace: NS },
    spec: { maxGPUs, ...spec },
  };
}

let client: ReturnType<typeof createFakeClient>;
beforeEach(() => {
  client = createFakeClient({
    kinds: [GPUBudgetKind],
    indexes: [
      {
        kind: GPUBudgetKind,
        field: BUDGET_NAMESPACE_INDEX,
        extract: (b: GPUBudget) => [b.metadata?.namespace ?? ""],
      },
    ],
  });
});

describe("PodCustomValidator", () => {
  it("denies a pod that would push a Deny budget past its cap, naming the budget and the numbers", async () => {
    await client.create(GPUBudgetKind, budget("cap", 4, { enforcement: "Deny" }));
    await client.create(Pod, gpuPod("running", 3));
    const v = new PodCustomValidator(client);
    await expect(v.validateCreate(gpuPod("more", 2))).rejects.toThrow(
      "pod denied: GPUBudget team-a/cap allows 4 nvidia.com/gpu; 3 allocated, this pod asks for 2 (5/4)",
    );
    await expect(v.validateCreate(gpuPod("fits", 1))).resolves.toEqual([]);
  });

  it("only warns for a Report budget", async () => {
    await client.create(GPUBudgetKind, budget("cap", 4));
    const v = new PodCustomValidator(client);
    const warnings = await v.validateCreate(gpuPod("big", 6));
    expect(warnings).toEqual([expect.stringContaining("enforcement is Report")]);
  });

  it("ignores pods the budget's selector does not pick", async () => {
    await client.create(
      GPUBudgetKind,
      budget("cap", 0, { enforcement: "Deny", selector: { matchLabels: { team: "ml" } } }),
    );
    const v = new PodCustomValidator(client);
    await expect(v.validateCreate(gpuPod("web", 2, { team: "web" }))).resolves.toEqual([]);
  });
});
