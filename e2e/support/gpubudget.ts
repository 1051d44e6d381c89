/** Reading a GPUBudget's status through kubectl, as the GPUBudget e2e files check it. */
import { expect } from "vitest";
import { eventually } from "../demo/lib.js";

/** kubectl against the test's control plane; throws on a non-zero exit. */
export type Kubectl = (args: string[], input?: string) => Promise<{ stdout: string }>;

export interface BudgetStatus {
  allocated?: number;
  podCount?: number;
  ready?: string;
  reason?: string;
  message?: string;
}

export async function budgetStatus(kubectl: Kubectl, namespace: string, name: string): Promise<BudgetStatus> {
  const out = await kubectl(["get", "gb", name, "-n", namespace, "-o", "json"]);
  const b = JSON.parse(out.stdout) as {
    status?: {
      allocatedGPUs?: number;
      podCount?: number;
      conditions?: { type: string; status: string; reason: string; message: string }[];
    };
  };
  const ready = b.status?.conditions?.find((c) => c.type === "Ready");
  return {
    allocated: b.status?.allocatedGPUs,
    podCount: b.status?.podCount,
    ready: ready?.status,
    reason: ready?.reason,
    message: ready?.message,
  };
}

/** Polls until the budget's status matches want. */
export async function expectBudgetStatus(
  kubectl: Kubectl,
  namespace: string,
  name: string,
  want: Partial<BudgetStatus>,
  timeoutMs = 30_000,
): Promise<void> {
  await eventually(
    async () => expect(await budgetStatus(kubectl, namespace, name)).toMatchObject(want),
    timeoutMs,
  );
}
