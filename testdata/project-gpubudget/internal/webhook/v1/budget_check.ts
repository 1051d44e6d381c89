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

import { AdmissionDenied, type Client, isNotFound } from "@kbts/runtime";
import type { GPUBudget } from "../../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../../api/v1alpha1/zz_generated.kinds.js";
import { budgetsInNamespace } from "../../controller/gpubudget_controller.js";
import { describeBudget } from "../../gpu/claims.js";
import { formatGPUs } from "../../gpu/podgpus.js";
import type { UsageTracker } from "../../gpu/usage.js";
import { isGPUHoursSpent } from "../../ledger/ledger.js";
import { admissions } from "../../metrics/metrics.js";
import type { BudgetReservations, Claim } from "./reservations.js";

export interface BudgetCheckOptions {
  client: Client;
  tracker: UsageTracker;
  reservations: BudgetReservations;
}

/** What one admission (a pod or a ResourceClaim) asks of the budgets of its namespace. */
export interface Ask {
  namespace: string;
  /** The reservation a Deny budget takes for it; milliGPUs is filled in per budget. */
  claim: Omit<Claim, "milliGPUs">;
  /** The thousandths of a GPU it adds to `budget` (0 or less: nothing, not checked). */
  milliGPUsFor(budget: GPUBudget): number;
  /** Whether the object is being created (a Queue budget refuses a pod created past it that could not be gated). */
  create?: boolean;
  /** Why it is only warned about, even under a Deny budget (a mirror pod); undefined for most. */
  warnOnly?: string;
}

/**
 * The one admission rule of both webhooks: for each budget of the namespace, a Deny budget reserves
 * what the object adds (reservations.ts) or refuses it, and a Report budget warns when it goes over.
 * A Deny budget that cannot be checked (API errors, a replica shutting down) refuses: an error would
 * fail open (failurePolicy Ignore) and admit the object unchecked.
 */
export async function checkBudgets(options: BudgetCheckOptions, ask: Ask): Promise<string[]> {
  const { namespace } = ask;
  const kind = ask.claim.kind ?? "pod";
  const noun = kind === "pod" ? "pod" : "claim";
  const warnings: string[] = [];
  for (const key of await budgetsInNamespace(options.client, namespace)) {
    let budget: GPUBudget;
    try {
      budget = await options.client.get(GPUBudgetKind, key);
    } catch (err) {
      if (isNotFound(err)) continue; // deleted since the index was read
      throw err;
    }
    const asked = ask.milliGPUsFor(budget);
    if (asked <= 0) continue;
    const labels = { namespace, name: key.name };
    // A Queue budget's pods arrive gated (pod_queue.ts) and hold nothing, so they never get here; one
    // created ungated could not wait in line (bound by spec.nodeName) and is admitted only if it fits.
    const enforcement = budget.spec.enforcement ?? "Report";
    const refuses =
      enforcement === "Deny" || (enforcement === "Queue" && ask.create === true && kind === "pod");
    if (isGPUHoursSpent(budget)) {
      // spec.gpuHours spent: no new GPU time until the window moves, whatever maxGPUs would allow.
      const hours = `GPUBudget ${namespace}/${key.name} has used ${budget.status?.gpuHours?.usedGPUHours}/${budget.spec.gpuHours?.limit} GPU-hours in its window (${budget.spec.gpuHours?.window}, since ${budget.status?.gpuHours?.windowStart})`;
      if (refuses && ask.warnOnly === undefined) {
        admissions.inc({ ...labels, result: "denied" });
        throw new AdmissionDenied(
          `${kind} denied: ${hours}; it asks for ${formatGPUs(asked)} GPUs more. Wait for the window to move or raise spec.gpuHours.limit`,
        );
      }
      admissions.inc({ ...labels, result: "warned" });
      warnings.push(`${hours}; ${ask.warnOnly ?? "enforcement is Report"}, so the ${noun} is admitted`);
      continue;
    }
    if (refuses && ask.warnOnly === undefined) {
      try {
        await options.reservations.reserve(key, { ...ask.claim, milliGPUs: asked });
      } catch (err) {
        admissions.inc({ ...labels, result: "denied" });
        if (err instanceof AdmissionDenied) throw err;
        throw new AdmissionDenied(
          `${kind} denied: GPUBudget ${namespace}/${key.name} could not be checked (${err instanceof Error ? err.message : String(err)}); try again`,
        );
      }
      admissions.inc({ ...labels, result: "allowed" });
      continue;
    }
    const counted = options.tracker.usage(namespace, key.name)?.allocatedMilli ?? 0;
    const max = budget.spec.maxGPUs;
    if (counted + asked <= max * 1000) {
      admissions.inc({ ...labels, result: "allowed" });
      continue;
    }
    admissions.inc({ ...labels, result: "warned" });
    const why = ask.warnOnly ?? "enforcement is Report";
    warnings.push(
      `GPUBudget ${namespace}/${key.name} allows ${max} ${describeBudget(budget.spec)}; ${formatGPUs(counted)} in use, this ${noun} asks for ${formatGPUs(asked)} (${formatGPUs(counted + asked)}/${max}); ${why}, so the ${noun} is admitted`,
    );
  }
  return warnings;
}
