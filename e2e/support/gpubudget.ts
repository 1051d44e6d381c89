/** Reading a GPUBudget's status through kubectl, as the GPUBudget e2e files check it. */
import { join } from "node:path";
import { expect } from "vitest";
import { parse as parseYaml } from "yaml";
import { eventually } from "./eventually.js";

/** kubectl against the test's control plane; throws on a non-zero exit. */
export type Kubectl = (args: string[], input?: string) => Promise<{ stdout: string }>;

export interface BudgetStatus {
  allocated?: number;
  podCount?: number;
  /** status.claimCount: the counted ResourceClaims (spec.deviceClasses). */
  claimCount?: number;
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
      claimCount?: number;
      conditions?: { type: string; status: string; reason: string; message: string }[];
    };
  };
  const ready = b.status?.conditions?.find((c) => c.type === "Ready");
  return {
    allocated: b.status?.allocatedGPUs,
    podCount: b.status?.podCount,
    claimCount: b.status?.claimCount,
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

/** The budget's Enforcing condition (Deny budgets only): status and reason, or undefined when absent. */
export async function enforcingCondition(
  kubectl: Kubectl,
  namespace: string,
  name: string,
): Promise<{ status: string; reason: string } | undefined> {
  const out = await kubectl(["get", "gb", name, "-n", namespace, "-o", "json"]);
  const b = JSON.parse(out.stdout) as {
    status?: { conditions?: { type: string; status: string; reason: string }[] };
  };
  const c = b.status?.conditions?.find((x) => x.type === "Enforcing");
  return c && { status: c.status, reason: c.reason };
}

/**
 * Polls until a Deny budget reports Enforcing=True: its namespace carries the enforcement label, so
 * kube-apiserver sends the namespace's pods to the webhook. Before that, nothing is refused.
 */
export async function expectEnforcing(
  kubectl: Kubectl,
  namespace: string,
  name: string,
  timeoutMs = 30_000,
): Promise<void> {
  await eventually(
    async () =>
      expect(await enforcingCondition(kubectl, namespace, name)).toEqual({
        status: "True",
        reason: "NamespaceLabelled",
      }),
    timeoutMs,
  );
}

/** The namespace label the operator sets where a Deny budget is (ENFORCEMENT_LABEL in the scaffold). */
export const ENFORCEMENT_LABEL = "capacity.lab.example.com/gpubudget-enforcement";

/** The scheduling gate a Queue budget's pods wait behind (QUEUE_GATE in the scaffold). */
export const QUEUE_GATE = "capacity.lab.example.com/gpubudget-queue";

/** The namespace label that binds the budget-full policy there while a Deny budget is full (FULL_LABEL in the scaffold). */
export const FULL_LABEL = "capacity.lab.example.com/gpubudget-full";

/** The namespace's enforcement label, or undefined. */
export async function enforcementLabel(kubectl: Kubectl, namespace: string): Promise<string | undefined> {
  return namespaceLabel(kubectl, namespace, ENFORCEMENT_LABEL);
}

async function namespaceLabel(
  kubectl: Kubectl,
  namespace: string,
  label: string,
): Promise<string | undefined> {
  const out = await kubectl(["get", "namespace", namespace, "-o", "json"]);
  return (JSON.parse(out.stdout) as { metadata: { labels?: Record<string, string> } }).metadata.labels?.[
    label
  ];
}

/**
 * Waits until the operator has labelled the namespace full (its Deny budget's status says so): from then
 * kube-apiserver refuses its GPU pods with the budget-full policy, without a webhook call.
 */
export async function expectFullLabel(
  kubectl: Kubectl,
  namespace: string,
  timeoutMs = 30_000,
): Promise<void> {
  await eventually(
    async () => expect(await namespaceLabel(kubectl, namespace, FULL_LABEL)).toBe("true"),
    timeoutMs,
  );
}

/** A manifest as `make deploy` applies it: `kubectl kustomize config/default` of the project, one object each. */
export type DeployedObject = { kind?: string; metadata?: { name?: string } } & Record<string, unknown>;

export async function deployedObjects(kubectl: Kubectl, project: string): Promise<DeployedObject[]> {
  const out = await kubectl(["kustomize", join(project, "config/default")]);
  return out.stdout
    .split(/^---$/m)
    .map((d) => parseYaml(d) as DeployedObject | null)
    .filter((d): d is DeployedObject => d !== null);
}
