/**
 * Counts read from kube-apiserver's own /metrics text (`kubectl get --raw /metrics`), for the checks
 * that say which admission step decided: the Pod webhook, or the GPUBudget operator's budget-full policy.
 */

/** The sum of one counter's samples whose line passes `matches` (every sample by default). */
export function sumCounter(
  metrics: string,
  name: string,
  matches: (line: string) => boolean = () => true,
): number {
  let n = 0;
  for (const line of metrics.split("\n")) {
    if (line.startsWith(`${name}{`) && matches(line)) n += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return n;
}

/** The name of the GPUBudget operator's Pod webhook, as kube-apiserver labels its calls. */
export const POD_WEBHOOK = "vpod-v1.kb.io";

/** Calls kube-apiserver made to the Pod webhook, every outcome. */
export function podWebhookCalls(metrics: string): number {
  return sumCounter(metrics, "apiserver_admission_webhook_request_total", (l) =>
    l.includes(`name="${POD_WEBHOOK}"`),
  );
}

/**
 * Pods kube-apiserver refused in-process with the budget-full admission policy
 * (config/webhook/budget_full_policy.yaml; kustomize may prefix its name): each a budget check without
 * a webhook call.
 */
export function budgetFullRefusals(metrics: string): number {
  return sumCounter(
    metrics,
    "apiserver_validating_admission_policy_check_total",
    (l) => l.includes('enforcement_action="deny"') && /policy="[^"]*budget-full"/.test(l),
  );
}
