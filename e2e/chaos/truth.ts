/**
 * The chaos harness's own rule for which pods hold their GPUs, against which the operator's budgets are
 * judged: Kubernetes' ResourceQuota rule (QuotaV1Pod, k8s.io/kubernetes pkg/quota/v1/evaluator/core/pods.go),
 * which the GPUBudget API promises to follow. Written here, apart from the operator's code, so that the
 * two are checked against each other rather than against themselves.
 *
 * A pod holds its GPUs unless it has finished (Succeeded or Failed) or it is terminating past its grace
 * period: deletionTimestamp plus deletionGracePeriodSeconds has passed, and the pod is still there only
 * because nothing finished deleting it (no kubelet on a lost node, or, in the chaos harness, a delete cut
 * between its two writes by a stopped or killed kube-apiserver: see holdsGPUs below).
 */
import type { Pod } from "../../runtime/src/api/kinds.js";

/**
 * Whether `pod` counts against its namespace's budget at `now` (ms since the epoch).
 *
 * Judging by the phase alone left a budget "one pod short" after the SIGSTOP fault (chaos-b 19 ≠ 20): a
 * grace-0 delete writes the pod twice (first its deletionTimestamp, then the removal), and when the
 * churn's client gives up on it during the pause, kube-apiserver can resume between the two writes with
 * the request cancelled. Killing kube-apiserver between the two writes does the same. The pod then stays,
 * Pending, deletionTimestamp set and grace 0, until the churn deletes or completes it. By the quota rule
 * it holds nothing, so the operator rightly leaves it out; a phase-only count kept it.
 */
export function holdsGPUs(pod: Pod, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === "Succeeded" || phase === "Failed") return false;
  const deletion = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (deletion == null || grace == null) return true;
  return now <= Date.parse(String(deletion)) + grace * 1000;
}
