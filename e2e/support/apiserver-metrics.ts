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

/**
 * One histogram's cumulative bucket counts (upper bound in seconds → count), summed over the samples
 * whose `<name>_bucket{...}` line passes `matches`.
 */
export function histogramBuckets(
  metrics: string,
  name: string,
  matches: (line: string) => boolean = () => true,
): Map<number, number> {
  const buckets = new Map<number, number>();
  for (const line of metrics.split("\n")) {
    if (!line.startsWith(`${name}_bucket{`) || !matches(line)) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (le === undefined) continue;
    const bound = le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1)));
  }
  return buckets;
}

/**
 * The q-quantile (0..1, in seconds) of what a histogram counted between two scrapes, interpolated
 * linearly within its bucket as Prometheus' histogram_quantile does; undefined when nothing was counted.
 */
export function histogramQuantile(
  before: Map<number, number>,
  after: Map<number, number>,
  q: number,
): number | undefined {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const counts = bounds.map((b) => (after.get(b) ?? 0) - (before.get(b) ?? 0));
  const total = counts.at(-1) ?? 0;
  if (total <= 0) return undefined;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const [i, bound] of bounds.entries()) {
    const count = counts[i] ?? 0;
    if (count >= rank) {
      // Past the last finite bound Prometheus answers that bound; so does this.
      if (!Number.isFinite(bound)) return lower;
      return lower + (bound - lower) * ((rank - below) / Math.max(count - below, 1));
    }
    lower = bound;
    below = count;
  }
  return lower;
}
