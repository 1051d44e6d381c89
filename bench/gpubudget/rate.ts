/**
 * The create-rate figure of bench/gpubudget: pods/s with the Pod webhook off and on, and the goal
 * (on >= 0.9x off), which is stated only when the webhook was really called for the pods of the "on"
 * run. Where no pod reached it (Report budgets: the scaffold's namespaceSelector sends only the
 * namespaces of Deny budgets), "on" and "off" both bypass admission and their ratio says nothing.
 */

/** The goal: creating pods with the webhook on is at least this fraction of the rate without. */
export const RATE_GOAL = 0.9;

export interface RateFigures {
  /** Pods created in each run. */
  pods: number;
  /** pods/s with the webhook configuration removed. */
  rateOff: number;
  /** pods/s with it in place. */
  rateOn: number;
  /** Calls kube-apiserver made to the Pod webhook during the "on" run. */
  callsOn: number;
}

/** The lines the benchmark prints for the create rate. */
export function createRateLines(f: RateFigures): string[] {
  const rates = `create rate: ${f.rateOff.toFixed(0)} pods/s with the webhook off, ${f.rateOn.toFixed(0)} pods/s on`;
  const calls = `webhook calls while creating ${f.pods} pods with it on: ${f.callsOn}`;
  if (f.callsOn < f.pods) {
    return [
      `${rates}; goal not measured: ${f.callsOn} webhook calls for ${f.pods} pods (give --enforcement Deny, so every pod is sent to the webhook)`,
      calls,
    ];
  }
  const ratio = f.rateOn / f.rateOff;
  return [
    `${rates} (${ratio.toFixed(2)}x; goal >= ${RATE_GOAL}x: ${ratio >= RATE_GOAL ? "met" : "not met"})`,
    calls,
  ];
}
