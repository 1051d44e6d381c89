/**
 * The chaos harness's truth (which pods hold their GPUs) follows Kubernetes' quota rule, the one the
 * operator promises: a pod stuck terminating past its grace period holds nothing. The first case is the
 * pod the SIGSTOP fault left behind, as kube-apiserver returned it.
 */
import { describe, expect, it } from "vitest";
import type { Pod } from "../../runtime/src/api/kinds.js";
import { holdsGPUs } from "./truth.js";

const NOW = Date.parse("2026-12-04T22:53:00Z");

type Phase = NonNullable<Pod["status"]>["phase"];

const pod = (metadata: Partial<NonNullable<Pod["metadata"]>> = {}, phase?: Phase): Pod => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p-1", namespace: "chaos-b", ...metadata },
  spec: { containers: [{ name: "main", image: "registry.k8s.io/pause:3.10" }] },
  ...(phase ? { status: { phase } } : {}),
});

describe("holdsGPUs", () => {
  it("leaves out a pod whose grace-0 delete was cut short: deletionTimestamp passed, still Pending", () => {
    const stuck = pod(
      { deletionTimestamp: "2026-12-04T22:52:25Z", deletionGracePeriodSeconds: 0 },
      "Pending",
    );
    expect(holdsGPUs(stuck, NOW)).toBe(false);
  });

  it("counts a terminating pod until its grace period ends, and not after", () => {
    const terminating = pod(
      { deletionTimestamp: "2026-12-04T22:52:50Z", deletionGracePeriodSeconds: 30 },
      "Running",
    );
    expect(holdsGPUs(terminating, NOW)).toBe(true);
    expect(holdsGPUs(terminating, Date.parse("2026-12-04T22:53:21Z"))).toBe(false);
  });

  it("counts pending and running pods, and no finished one", () => {
    expect(holdsGPUs(pod(), NOW)).toBe(true);
    expect(holdsGPUs(pod({}, "Pending"), NOW)).toBe(true);
    expect(holdsGPUs(pod({}, "Running"), NOW)).toBe(true);
    expect(holdsGPUs(pod({}, "Unknown"), NOW)).toBe(true);
    expect(holdsGPUs(pod({}, "Succeeded"), NOW)).toBe(false);
    expect(holdsGPUs(pod({}, "Failed"), NOW)).toBe(false);
  });
});
