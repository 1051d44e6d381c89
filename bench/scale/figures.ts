/**
 * bench/scale's arithmetic, apart from any process: how many pods fit this machine (fitTarget), the
 * kube-apiserver audit log's budget status writes (parseStatusWrite) and the overlap check over them
 * (writeWindows + the sharding tests' overlaps), and the printed table and goals.
 */
import { percentile } from "../../e2e/support/stats.js";
import { overlaps, type Window } from "../../runtime/src/sharding/testdata/harness.js";

export { overlaps, percentile, type Window };

/** Where the pod creates stand, for fitTarget: all counts are pods, times seconds, memory MiB. */
export interface CreateProgress {
  /** Pods created so far. */
  done: number;
  /** Pods asked for (--pods, rounded up to whole namespaces). */
  requested: number;
  /** Seconds since the first create. */
  elapsedSeconds: number;
  /** Pods per second lately (the rate drops as etcd grows: the latest is the honest one). */
  recentRate: number;
  /** kube-apiserver + etcd resident memory now, and before the first create. */
  controlPlaneMiB: number;
  controlPlaneStartMiB: number;
}

export interface CreateLimits {
  /** The longest the creates may take. */
  budgetSeconds: number;
  /** The most kube-apiserver + etcd may hold. */
  controlPlaneMaxMiB: number;
}

/**
 * The pod count to aim at from here: the requested count, cut to what the latest create rate
 * finishes within the time budget and to what the control plane's measured memory per pod so far
 * keeps within its limit; rounded down to whole `perNamespace` groups, never below what is created.
 * `reason` says which cut applied, with the measured figures (undefined when neither did).
 */
export function fitTarget(
  p: CreateProgress,
  limits: CreateLimits,
  perNamespace: number,
): { target: number; reason?: string } {
  let target = p.requested;
  let reason: string | undefined;
  const byTime = p.done + Math.floor(p.recentRate * Math.max(0, limits.budgetSeconds - p.elapsedSeconds));
  const whole = (n: number) => Math.max(p.done, Math.floor(n / perNamespace) * perNamespace);
  if (byTime < target) {
    target = byTime;
    reason = `time: after ${p.done} pods in ${p.elapsedSeconds.toFixed(0)} s, pods were created at ${p.recentRate.toFixed(0)}/s (the latest chunks), so ${whole(byTime)}, not ${p.requested}, fit the ${limits.budgetSeconds} s create budget (--create-seconds)`;
  }
  const perPodMiB = p.done > 0 ? (p.controlPlaneMiB - p.controlPlaneStartMiB) / p.done : 0;
  if (perPodMiB > 0) {
    const byMemory = Math.floor((limits.controlPlaneMaxMiB - p.controlPlaneStartMiB) / perPodMiB);
    if (byMemory < target) {
      target = byMemory;
      reason = `memory: kube-apiserver + etcd grew ${(perPodMiB * 1024).toFixed(1)} KiB per pod (${p.controlPlaneStartMiB.toFixed(0)} -> ${p.controlPlaneMiB.toFixed(0)} MiB over ${p.done} pods), so ${whole(byMemory)}, not ${p.requested}, fit their ${limits.controlPlaneMaxMiB.toFixed(0)} MiB share of this machine (--control-plane-share)`;
    }
  }
  if (reason === undefined) return { target: p.requested };
  return { target: whole(target), reason };
}

/** One write of a GPUBudget's status, from the kube-apiserver audit log. */
export interface StatusWrite {
  user: string;
  /** namespace/name of the budget. */
  key: string;
  /** When the API server received it and when it answered (ms since the epoch). */
  start: number;
  end: number;
  code: number;
}

/**
 * A ResponseComplete audit event (JSON, one a line) of an update or patch of gpubudgets/status, or
 * undefined for any other line. The audit policy bench/scale installs logs nothing else, but the
 * parser does not rely on that.
 */
export function parseStatusWrite(line: string): StatusWrite | undefined {
  if (!line.startsWith("{")) return undefined;
  const e = JSON.parse(line) as {
    stage?: string;
    verb?: string;
    user?: { username?: string };
    objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
    responseStatus?: { code?: number };
    requestReceivedTimestamp?: string;
    stageTimestamp?: string;
  };
  const ref = e.objectRef;
  if (e.stage !== "ResponseComplete" || ref?.resource !== "gpubudgets" || ref.subresource !== "status")
    return undefined;
  if (e.verb !== "update" && e.verb !== "patch") return undefined;
  return {
    user: e.user?.username ?? "",
    key: `${ref.namespace ?? ""}/${ref.name ?? ""}`,
    start: Date.parse(e.requestReceivedTimestamp ?? ""),
    end: Date.parse(e.stageTimestamp ?? ""),
    code: e.responseStatus?.code ?? 0,
  };
}

/**
 * Each replica's span of successful status writes of each budget since `since`: from the first
 * write's receipt to the last one's answer. Two replicas' spans of one budget overlapping (overlaps)
 * means both wrote it while the other was still writing it: reconciled by two at once. `replicaOf`
 * names a write's replica from its user (undefined: not a replica's write, ignored).
 */
export function writeWindows(
  writes: readonly StatusWrite[],
  since: number,
  replicaOf: (user: string) => string | undefined,
): Window[] {
  const spans = new Map<string, Window>();
  for (const w of writes) {
    const replica = replicaOf(w.user);
    if (replica === undefined || w.start < since || w.code < 200 || w.code >= 300) continue;
    const id = `${replica}\0${w.key}`;
    const s = spans.get(id);
    if (!s) spans.set(id, { replica, key: w.key, start: w.start, end: w.end });
    else {
      s.start = Math.min(s.start, w.start);
      s.end = Math.max(s.end, w.end);
    }
  }
  return [...spans.values()];
}

/** The last successful writer of each budget (key -> replica), in the log's order of answers. */
export function lastWriters(
  writes: readonly StatusWrite[],
  replicaOf: (user: string) => string | undefined,
): Map<string, { replica: string; end: number }> {
  const out = new Map<string, { replica: string; end: number }>();
  for (const w of writes) {
    const replica = replicaOf(w.user);
    if (replica === undefined || w.code < 200 || w.code >= 300) continue;
    const prev = out.get(w.key);
    if (!prev || prev.end <= w.end) out.set(w.key, { replica, end: w.end });
  }
  return out;
}

/** What one replica of a configuration measured. */
export interface ReplicaFigures {
  name: string;
  peakRSSMiB: number;
  steadyRSSMiB: number;
  /** Process start -> first /readyz 200 (s). */
  readySeconds: number;
  /** The namespaces whose budget it wrote last: its share. */
  namespaces: number;
}

/** What one configuration (1 replica, 3 shards, the Go port) measured. */
export interface ConfigFigures {
  label: string;
  replicas: ReplicaFigures[];
  /** Last create of the wave -> every budget correct (s). */
  convergedSeconds: number;
  /** Pod change -> budget status, ascending (ms). */
  latenciesMs: number[];
  /** SIGKILL of one shard -> its namespaces' budgets correct, written by survivors (s). */
  handoverSeconds?: number;
  /** Why the configuration ended early (a replica died unasked): its figures are what it had. */
  failure?: string;
}

const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");

/** The Markdown table: one row a replica; a configuration's own figures on its first row. */
export function scaleTable(configs: readonly ConfigFigures[]): string {
  const rows = [
    "| configuration | replica | namespaces | peak RSS (MiB) | steady RSS (MiB) | start → ready (s) | all correct after last create (s) | pod change → status p50 / p99 (ms) | handover after SIGKILL (s) |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const c of configs) {
    c.replicas.forEach((r, i) => {
      const own =
        i === 0
          ? [
              c.label,
              fixed(c.convergedSeconds, 2),
              `${fixed(percentile(c.latenciesMs, 50), 1)} / ${fixed(percentile(c.latenciesMs, 99), 1)}`,
              c.failure !== undefined
                ? "failed"
                : c.handoverSeconds === undefined
                  ? "–"
                  : fixed(c.handoverSeconds, 2),
            ]
          : ["", "", "", ""];
      rows.push(
        `| ${own[0]} | ${r.name} | ${r.namespaces} | ${fixed(r.peakRSSMiB, 0)} | ${fixed(r.steadyRSSMiB, 0)} | ${fixed(r.readySeconds, 2)} | ${own[1]} | ${own[2]} | ${own[3]} |`,
      );
    });
  }
  return rows.join("\n");
}

/** What the handover check counted. */
export interface HandoverCheck {
  /** The killed shard's budgets, and how many of them ended correct and written by a survivor. */
  budgets: number;
  takenOver: number;
  /** Budgets anywhere not correct at the end. */
  wrong: number;
  /** Pairs of overlapping write spans of one budget by two replicas (overlaps). */
  overlapping: string[];
}

/** The issue's goals beside the figures: stated, met or not, never asserted. */
export function goalLines(
  unsharded: ConfigFigures | undefined,
  sharded: ConfigFigures | undefined,
  go: ConfigFigures | undefined,
  handover: HandoverCheck | undefined,
): string[] {
  const lines: string[] = [];
  const verdict = (ok: boolean) => (ok ? "met" : "not met");
  for (const c of [unsharded, sharded, go]) {
    if (c?.failure !== undefined) lines.push(`goal: not measured for ${c.label}: it failed (${c.failure})`);
  }
  if (unsharded?.failure !== undefined) unsharded = undefined;
  if (sharded?.failure !== undefined) {
    sharded = undefined;
    handover = undefined;
  }
  if (go?.failure !== undefined) go = undefined;
  const base = unsharded?.replicas[0];
  if (base && sharded) {
    const shares = sharded.replicas.map((r) => r.steadyRSSMiB / base.steadyRSSMiB);
    lines.push(
      `goal: each of ${sharded.replicas.length} shards <= 40% of the unsharded replica's steady RSS (${base.steadyRSSMiB.toFixed(0)} MiB): ${sharded.replicas
        .map((r, i) => `${r.name} ${((shares[i] as number) * 100).toFixed(0)}%`)
        .join(", ")}: ${verdict(shares.every((s) => s <= 0.4))}`,
    );
  }
  const goBase = go?.replicas[0];
  if (base && goBase) {
    lines.push(
      `goal: unsharded TS peak RSS <= Go's: ${base.peakRSSMiB.toFixed(0)} vs ${goBase.peakRSSMiB.toFixed(0)} MiB (${(base.peakRSSMiB / goBase.peakRSSMiB).toFixed(2)}x): ${verdict(base.peakRSSMiB <= goBase.peakRSSMiB)}`,
    );
  }
  if (handover?.budgets === 0)
    lines.push(
      "goal: no object lost or double-reconciled across the handover: not measured (the killed shard owned no namespace)",
    );
  else if (handover) {
    const ok =
      handover.takenOver === handover.budgets && handover.wrong === 0 && handover.overlapping.length === 0;
    lines.push(
      `goal: no object lost or double-reconciled across the handover: ${handover.takenOver}/${handover.budgets} of the killed shard's budgets correct and written by a survivor, ${handover.wrong} budgets wrong anywhere, ${handover.overlapping.length} budgets written by two replicas in overlapping spans (audit log): ${verdict(ok)}`,
    );
    for (const o of handover.overlapping.slice(0, 5)) lines.push(`  overlap: ${o}`);
  }
  return lines;
}
