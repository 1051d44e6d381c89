import { describe, expect, it } from "vitest";
import { histogramBuckets, histogramQuantile } from "../../e2e/support/apiserver-metrics.js";
import {
  createsPerNamespace,
  mergeFigures,
  reasons,
  roundGoalLines,
  roundOrder,
  type SetFigures,
  type SteadyFigures,
  setTable,
  steadyLines,
  vsQuotaOptions,
} from "./vs-quota.js";

const figures = (set: SetFigures["set"], over: Partial<SetFigures> = {}): SetFigures => ({
  set,
  attempted: 100,
  admitted: 50,
  refused: 50,
  failed: 0,
  seconds: 1,
  latencies: [10, 20, 30],
  ...(set === "none" ? {} : { wrong: [] }),
  webhookCalls: set === "budget" ? 100 : 0,
  policyRefusals: 0,
  statusWrites: set === "budget" ? 70 : 0,
  statusConflicts: set === "budget" ? 2 : 0,
  cpu:
    set === "budget"
      ? { operator: 1.5, "kube-apiserver": 4, etcd: 0.5, "bench client": 1 }
      : { operator: 0, "kube-apiserver": 4, etcd: 1, "bench client": 1 },
  ...over,
});

describe("createsPerNamespace", () => {
  it("spreads the creates round-robin, the first namespaces one more", () => {
    expect(createsPerNamespace(10, 3)).toEqual([4, 3, 3]);
    expect(createsPerNamespace(3000, 30).every((n) => n === 100)).toBe(true);
    expect(createsPerNamespace(7, 7)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });
});

describe("roundOrder", () => {
  it("interleaves none, quota, budget in every round", () => {
    expect(roundOrder(2).map((r) => `${r.round}${r.set}`)).toEqual([
      "1none",
      "1quota",
      "1budget",
      "2none",
      "2quota",
      "2budget",
    ]);
  });
});

describe("vsQuotaOptions", () => {
  it("has the issue's defaults", () => {
    expect(vsQuotaOptions({})).toEqual({
      namespaces: 30,
      creates: 3000,
      cap: 50,
      rounds: 2,
      concurrency: 32,
      steadyRate: 20,
      steadySeconds: 30,
      steadyPods: 3000,
      cluster: false,
      enableHTTP2: false,
    });
    expect(vsQuotaOptions({ "steady-rate": "0" }).steadyRate).toBe(0);
    expect(vsQuotaOptions({ "enable-http2": true }).enableHTTP2).toBe(true);
  });

  it("refuses a split that leaves some namespace not full, naming the flags", () => {
    expect(() => vsQuotaOptions({ namespaces: "30", creates: "1500", cap: "50" })).toThrow(
      "--creates 1500 over --namespaces 30 gives some namespace 50 creates, not more than --cap 50: give --creates above 1500",
    );
    expect(() => vsQuotaOptions({ cap: "0" })).toThrow('--cap must be a whole number >= 1, got "0"');
    expect(() => vsQuotaOptions({ rounds: "two" })).toThrow(
      '--rounds must be a whole number >= 1, got "two"',
    );
  });
});

describe("roundGoalLines", () => {
  it("states the rate goal and exactness when every budget create reached the webhook", () => {
    const lines = roundGoalLines(
      figures("none", { seconds: 0.5 }),
      figures("quota", { latencies: [5, 8, 20] }),
      figures("budget", { seconds: 0.8, latencies: [6, 9, 33] }),
    );
    expect(lines).toEqual([
      "Deny/ResourceQuota create rate 1.25 (goal >= 1.0): met",
      "Deny/none create rate 0.63",
      "Deny p99 − quota p99 = 13 ms (p50: 1 ms)",
      "CPU per create, Deny/ResourceQuota 1.17; Deny − ResourceQuota CPU-s: operator +1.5, kube-apiserver +0.0, etcd −0.5, bench client +0.0",
      "exact (ResourceQuota): yes",
      "exact (GPUBudget Deny): yes",
    ]);
  });

  it("says NOT met, lists inexact namespaces, and never states a goal the webhook did not see", () => {
    const slow = roundGoalLines(
      figures("none"),
      figures("quota"),
      figures("budget", { seconds: 2, wrong: ["vsq-r1-budget-003: 49/50"] }),
    );
    expect(slow[0]).toBe("Deny/ResourceQuota create rate 0.50 (goal >= 1.0): NOT met");
    expect(slow[5]).toBe("exact (GPUBudget Deny): NO (vsq-r1-budget-003: 49/50)");
    const bypassed = roundGoalLines(
      figures("none"),
      figures("quota"),
      figures("budget", { webhookCalls: 99 }),
    );
    expect(bypassed[0]).toBe(
      "Deny/ResourceQuota create rate 1.00 (goal >= 1.0): not measured: the webhook was called 99 times and the budget-full policy refused 0 pods for 100 budget creates",
    );
    // A pod the policy refused in kube-apiserver was checked against the budget without a webhook call.
    const inProcess = roundGoalLines(
      figures("none"),
      figures("quota"),
      figures("budget", { webhookCalls: 40, policyRefusals: 60 }),
    );
    expect(inProcess[0]).toBe("Deny/ResourceQuota create rate 1.00 (goal >= 1.0): met");
  });
});

describe("mergeFigures and setTable", () => {
  it("sums rounds and shows every set, the uncapped one without an exactness claim", () => {
    const merged = mergeFigures([
      figures("quota", { latencies: [1, 3] }),
      figures("quota", { latencies: [2], wrong: ["a: 51/50"] }),
    ]);
    expect(merged).toMatchObject({ attempted: 200, seconds: 2, latencies: [1, 2, 3], wrong: ["a: 51/50"] });
    expect(mergeFigures([figures("budget"), figures("budget")])).toMatchObject({
      statusWrites: 140,
      statusConflicts: 4,
      cpu: { operator: 3, "kube-apiserver": 8, etcd: 1, "bench client": 2 },
    });
    const table = setTable([figures("none"), merged, figures("budget")], 50).split("\n");
    expect(table.slice(2)).toEqual([
      "| none | 100.0 | 50 | 50 | 0 | 20.0 / 30.0 | n/a (no cap) | 0 | 0 | 0 (0) | 0.0 / 4.0 / 1.0 / 1.0 (6.0) |",
      "| ResourceQuota | 100.0 | 100 | 100 | 0 | 2.0 / 3.0 | NO | 0 | 0 | 0 (0) | 0.0 / 8.0 / 2.0 / 2.0 (12.0) |",
      "| GPUBudget Deny | 100.0 | 50 | 50 | 0 | 20.0 / 30.0 | yes (50 each) | 100 | 0 | 70 (2) | 1.5 / 4.0 / 0.5 / 1.0 (7.0) |",
    ]);
  });
});

describe("steadyLines", () => {
  const steady = (set: SteadyFigures["set"], over: Partial<SteadyFigures> = {}): SteadyFigures => ({
    set,
    refusedLatencies: [4, 6],
    pairLatencies: [5, 7],
    unexpected: [],
    webhookCalls: set === "budget" ? 4 : 0,
    policyRefusals: 0,
    statusWrites: set === "budget" ? 6 : 0,
    statusConflicts: set === "budget" ? 1 : 0,
    attempted: 4,
    ...over,
  });

  it("shows the budget's status writes and their conflicts, for the budget only", () => {
    const [quota, budget] = steadyLines(steady("quota"), steady("budget"));
    expect(budget).toContain("webhook calls 4, policy refusals 0, budget status writes 6 (1 conflicts)");
    expect(quota).not.toContain("status writes");
  });

  it("compares the p99 of all creates against the 10 ms goal", () => {
    const met = steadyLines(steady("quota"), steady("budget", { pairLatencies: [5, 17] }));
    expect(met.at(-1)).toBe("Deny p99 − quota p99 = 10 ms (goal <= 10 ms): met");
    const missed = steadyLines(steady("quota"), steady("budget", { refusedLatencies: [4, 18] }));
    expect(missed.at(-1)).toBe("Deny p99 − quota p99 = 11 ms (goal <= 10 ms): NOT met");
  });

  it("does not state the goal when the webhook missed budget creates, and shows unexpected outcomes", () => {
    const lines = steadyLines(
      steady("quota"),
      steady("budget", { webhookCalls: 0, unexpected: ["s-1 refused: busy"] }),
    );
    expect(lines.at(-1)).toBe(
      "Deny p99 − quota p99 = 0 ms (goal <= 10 ms): not measured: the webhook was called 0 times and the budget-full policy refused 0 pods for 4 budget creates",
    );
    expect(lines[1]).toContain("UNEXPECTED: 1 (1× s-N refused: busy)");
  });
});

describe("reasons", () => {
  it("groups refusals by message with numbers and namespaces masked, most frequent first", () => {
    expect(
      reasons([
        "refused: GPUBudget vsq-r1-budget-001/budget allows 50; 50 in use",
        "refused: busy, try again",
        "refused: GPUBudget vsq-r1-budget-002/budget allows 50; 50 in use",
      ]),
    ).toBe("2× refused: GPUBudget <ns>/budget allows N; N in use; 1× refused: busy, try again");
  });
});

describe("histogramQuantile (webhook and status-write times from kube-apiserver's /metrics)", () => {
  const scrape = (webhook: number[], other: number[]) =>
    ["0.005", "0.01", "0.025", "+Inf"]
      .flatMap((le, i) => [
        `apiserver_admission_webhook_admission_duration_seconds_bucket{name="vpod-v1.kb.io",le="${le}"} ${webhook[i]}`,
        `apiserver_admission_webhook_admission_duration_seconds_bucket{name="other.kb.io",le="${le}"} ${other[i]}`,
      ])
      .join("\n");
  const pod = (l: string) => l.includes('name="vpod-v1.kb.io"');
  const name = "apiserver_admission_webhook_admission_duration_seconds";

  it("counts only what happened between the scrapes, of the samples picked, interpolated in the bucket", () => {
    const before = histogramBuckets(scrape([10, 10, 10, 10], [0, 0, 0, 0]), name, pod);
    // Since then: 40 calls within 5 ms, 60 between 10 and 25 ms; the other webhook's 1,000 are not counted.
    const after = histogramBuckets(scrape([50, 50, 110, 110], [1000, 1000, 1000, 1000]), name, pod);
    expect(histogramQuantile(before, after, 0.2)).toBeCloseTo(0.0025);
    expect(histogramQuantile(before, after, 0.7)).toBeCloseTo(0.0175);
    expect(histogramQuantile(before, after, 0.99)).toBeCloseTo(0.02475);
    expect(histogramQuantile(before, before, 0.5)).toBeUndefined();
  });

  it("answers the last finite bound for what lies past it", () => {
    const after = histogramBuckets(scrape([0, 0, 1, 10], [0, 0, 0, 0]), name, pod);
    expect(histogramQuantile(new Map(), after, 0.99)).toBe(0.025);
  });
});
