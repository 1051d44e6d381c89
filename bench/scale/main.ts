/**
 * bench/scale (issue 30, item 4): the scaffolded GPUBudget operator at up to 150,000 pods over 10,000
 * namespaces, or as many as this machine creates within --create-seconds and holds in kube-apiserver +
 * etcd within --control-plane-share of its available memory (measured while creating; printed with the
 * reason). One control plane (kube-apiserver with ShardedListAndWatch on, and an audit log of budget
 * status writes) serves, one after the other:
 *   - TS, 1 replica: the production build (make build-bundle) as its image runs it, unsharded;
 *   - Go, 1 replica: the Kubebuilder port (bench/gpubudget/go, `make bench-go-operator`), unsharded;
 *   - TS, 3 shards: the same build with --shard-ring (KEP-5866 shardSelector, by namespace).
 * Each configuration: start (the pods already exist), wait until every budget is correct, then a wave of
 * one new pod per namespace and the time from its last create to every budget correct, then the pod
 * change -> status latency (common.ts statusLatencies), then each replica's steady RSS (median VmRSS
 * over 5 s) and peak RSS (VmHWM). The 3-shard run then SIGKILLs the shard owning the most namespaces
 * while it reconciles a pod created in each of them, creates another pod in each, and times the kill
 * until every one of those budgets is correct and was last written by a surviving shard after the kill.
 * A replica that dies unasked (out of memory, a lost Lease) ends its configuration, reported as failed
 * with its last words, and the run goes on.
 *
 * Who wrote what: each replica runs as its own ServiceAccount, so the audit log names the writer of
 * every gpubudgets/status write, with the time the API server received it and answered. No object is
 * double-reconciled when no two replicas' write spans of one budget overlap (figures.ts).
 *
 * Webhooks: the ValidatingWebhookConfiguration is removed, so the figures are caches and reconciles (each
 * TS replica's webhook server is up, never called; the Go port has none).
 *
 *   KUBEBUILDER_ASSETS=... npx tsx bench/scale/main.ts [--pods 150000] [--namespaces 10000] --project DIR
 *     [--create-seconds 600] [--control-plane-share 0.4] [--samples 100] [--concurrency 32]
 *     [--max-concurrent-reconciles 4] [--shards 3] [--no-go] [--no-sharded]
 *     [--memory-limit MiB]   each replica in a memory cgroup of that size, as in a pod (cgroup.ts)
 *     [--keep [--log-level info]]   keep the operators' logs and the audit log
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "../../e2e/support/eventually.js";
import { nodeLtsBin } from "../../e2e/support/node-lts.js";
import {
  buildProject,
  type ControlPlane,
  metricValue,
  type Operator,
  scaffoldProject,
  startControlPlane,
  startOperator,
} from "../../e2e/support/operator.js";
import { serviceAccountKubeconfig } from "../../e2e/support/service-account.js";
import { loadAverage } from "../../e2e/support/stats.js";
import type { Pod as PodObject } from "../../runtime/src/api/core.js";
import { Lease, Namespace, Pod } from "../../runtime/src/api/kinds.js";
import { createCache } from "../../runtime/src/cache/index.js";
import { createClient } from "../../runtime/src/client/index.js";
import { RANGES_ANNOTATION } from "../../runtime/src/sharding/index.js";
import { evenSplit, fnv1a64, type HashRange, parseRanges } from "../../runtime/src/sharding/ranges.js";
import { benchArgs } from "../args.js";
import { childPids, GPUBudget, ns, pool, statusLatencies } from "../gpubudget/common.js";
import { productionBuild } from "../gpubudget/compare-go.js";
import { cpuSeconds, peakRSSMiB, rssMiB } from "../gpubudget/footprint.js";
import { cachedGoOperator } from "../gpubudget/go-operator.js";
import { AUDIT_POLICY, AuditTail } from "./audit.js";
import { memoryCgroups } from "./cgroup.js";
import {
  type ConfigFigures,
  fitTarget,
  goalLines,
  type HandoverCheck,
  lastWriters,
  overlaps,
  type ReplicaFigures,
  scaleTable,
  writeWindows,
} from "./figures.js";

const { values } = benchArgs("bench/scale", {
  pods: { type: "string", default: "150000" },
  namespaces: { type: "string", default: "10000" },
  project: { type: "string" },
  "create-seconds": { type: "string", default: "600" },
  "control-plane-share": { type: "string", default: "0.4" },
  samples: { type: "string", default: "100" },
  concurrency: { type: "string", default: "32" },
  "max-concurrent-reconciles": { type: "string", default: "4" },
  shards: { type: "string", default: "3" },
  "no-go": { type: "boolean", default: false },
  "no-sharded": { type: "boolean", default: false },
  // Each replica in a memory cgroup of this many MiB, as its pod's limit puts it (cgroup.ts).
  "memory-limit": { type: "string" },
  // Keep the work directory: the operators' logs and the API server's audit log.
  keep: { type: "boolean", default: false },
  // The operators' --zap-log-level (info logs each status write; error keeps logging out of the figures).
  "log-level": { type: "string", default: "error" },
});
const count = (flag: keyof typeof values) => {
  const text = String(values[flag]);
  if (!/^[1-9][0-9]*$/.test(text))
    throw new Error(`--${flag} must be a positive whole number, got "${text}"`);
  return Number(text);
};
const REQUESTED_PODS = count("pods");
const REQUESTED_NAMESPACES = count("namespaces");
const PER_NS = Math.ceil(REQUESTED_PODS / REQUESTED_NAMESPACES);
const CONCURRENCY = count("concurrency");
const SAMPLES = count("samples");
const SHARDS = count("shards");
const CREATE_SECONDS = count("create-seconds");
const CP_SHARE = Number(values["control-plane-share"]);
const MEMORY_LIMIT = values["memory-limit"] === undefined ? undefined : count("memory-limit");
const RING = "gpubudget";
const SA_NAMESPACE = "default";
// Room for every pod the bench makes in a namespace (base, three waves, two handover pods): the
// budgets never refuse (the budget-full policy stays installed).
const MAX_GPUS = PER_NS * 2 + 16;

const secondsSince = (t: number) => (performance.now() - t) / 1000;
const memAvailableMiB = () =>
  Number(/^MemAvailable:\s+(\d+) kB$/m.exec(readFileSync("/proc/meminfo", "utf8"))?.[1] ?? "0") / 1024;
const podOf = (namespace: string, name: string): PodObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace },
  spec: { containers: [{ name: "c", image: "busybox", resources: { limits: { "nvidia.com/gpu": "1" } } }] },
});

/** The last thing an operator's log says: V8's fatal error, else its last message. */
function lastWords(logFile: string): string {
  const lines = readFileSync(logFile, "utf8").split("\n");
  const fatal = lines.find((l) => l.startsWith("FATAL ERROR"));
  if (fatal) return fatal;
  const last = lines.filter((l) => l.includes('"msg"')).at(-1) ?? "";
  return /"msg":"([^"]*)"/.exec(last)?.[1] ?? last.slice(0, 200);
}

const work = mkdtempSync(join(tmpdir(), "kbts-bench-scale-"));
const project = values.project ?? join(work, "gpubudget");
const loadAtStart = loadAverage();
let cp: ControlPlane | undefined;
const cgroups = MEMORY_LIMIT === undefined ? undefined : memoryCgroups(MEMORY_LIMIT);
const running: Operator[] = [];
const abort = new AbortController();
try {
  if (!values.project) {
    console.log("scaffolding and building the GPUBudget project...");
    await scaffoldProject(project);
    await buildProject(project);
  }
  const imageNode = await nodeLtsBin();
  const bundle = await productionBuild(project, imageNode);
  const go = await cachedGoOperator();
  console.log(`TS: ${bundle.described}; Go: ${go.ok ? go.bin : `skipped (${go.reason})`}`);
  console.log(
    MEMORY_LIMIT === undefined
      ? "memory: replicas unconfined (Node sizes V8's heap from the machine's memory; --memory-limit confines each as its pod would)"
      : `memory: each replica in a memory cgroup of ${MEMORY_LIMIT} MiB, as a pod's limit puts it (Node sizes V8's heap from it)`,
  );

  const policy = join(work, "audit-policy.yaml");
  writeFileSync(policy, AUDIT_POLICY);
  const auditLog = join(work, "audit.log");
  cp = await startControlPlane(project, {
    apiServerFlags: {
      "feature-gates": "ShardedListAndWatch=true",
      "audit-policy-file": policy,
      "audit-log-path": auditLog,
    },
  });
  const c = cp;
  await c.kubectl(["delete", "validatingwebhookconfigurations", "--all"]);
  console.log(
    "webhooks: the ValidatingWebhookConfiguration is removed; the figures are caches and reconciles (TS replicas serve an uncalled webhook, the Go port has none)",
  );
  const client = createClient(c.env.kubeConfig);
  const audit = new AuditTail(auditLog);
  const children = childPids();
  const cpPids = ["kube-apiserver", "etcd"].map((n) => children.get(n) ?? 0);
  const cpMiB = () => cpPids.reduce((sum, pid) => sum + rssMiB(pid), 0);
  const cpCpu = () => cpPids.map(cpuSeconds);

  // The load: namespaces, a budget each, PER_NS pods each, created in chunks; after each chunk the
  // target is what fits by then (figures.ts fitTarget), so the size printed is measured here.
  const memAvailable = memAvailableMiB();
  const limits = { budgetSeconds: CREATE_SECONDS, controlPlaneMaxMiB: memAvailable * CP_SHARE };
  const cpStart = cpMiB();
  const cpu0 = [...cpCpu(), process.cpuUsage().user + process.cpuUsage().system];
  const expected = new Map<string, number>();
  let target = REQUESTED_NAMESPACES * PER_NS;
  let reason: string | undefined;
  let createdNs = 0;
  const chunkNs = Math.max(1, Math.ceil(REQUESTED_NAMESPACES / 25));
  const createStart = performance.now();
  // The rate over the latest three chunks: one chunk is noisy on a shared machine, the whole run hides
  // the slowdown as etcd grows.
  const chunks: { pods: number; seconds: number }[] = [];
  const recentRate = () => {
    const last = chunks.slice(-3);
    return last.reduce((n, c) => n + c.pods, 0) / last.reduce((t, c) => t + c.seconds, 0);
  };
  console.log(
    `creating up to ${target} pods in ${REQUESTED_NAMESPACES} namespaces (${PER_NS} each, one GPUBudget each), ${CONCURRENCY} at a time; MemAvailable ${memAvailable.toFixed(0)} MiB, kube-apiserver + etcd limited to ${limits.controlPlaneMaxMiB.toFixed(0)} MiB, creates to ${CREATE_SECONDS} s`,
  );
  while (createdNs * PER_NS < target) {
    const n = Math.min(chunkNs, Math.ceil(target / PER_NS) - createdNs);
    const names = Array.from({ length: n }, (_, i) => ns(createdNs + i));
    const chunkStart = performance.now();
    await pool(names, CONCURRENCY, async (name) => {
      await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name } });
      await client.create(GPUBudget, {
        apiVersion: "capacity.lab.example.com/v1alpha1",
        kind: "GPUBudget",
        metadata: { name: "budget", namespace: name },
        spec: { maxGPUs: MAX_GPUS },
      });
    });
    const pods = names.flatMap((name) => Array.from({ length: PER_NS }, (_, k) => podOf(name, `p-${k}`)));
    await pool(pods, CONCURRENCY, async (p) => {
      await client.create(Pod, p);
    });
    for (const name of names) expected.set(name, PER_NS);
    chunks.push({ pods: pods.length, seconds: secondsSince(chunkStart) });
    createdNs += n;
    const fit = fitTarget(
      {
        done: createdNs * PER_NS,
        requested: REQUESTED_NAMESPACES * PER_NS,
        elapsedSeconds: secondsSince(createStart),
        recentRate: recentRate(),
        controlPlaneMiB: cpMiB(),
        controlPlaneStartMiB: cpStart,
      },
      limits,
      PER_NS,
    );
    // Each chunk decides afresh: the target rises again when the rate recovers.
    target = fit.target;
    reason = fit.reason;
    console.log(
      `  ${createdNs * PER_NS} pods in ${createdNs} namespaces after ${secondsSince(createStart).toFixed(0)} s (${(pods.length / secondsSince(chunkStart)).toFixed(0)} pods/s in this chunk, ${recentRate().toFixed(0)} over the last three; kube-apiserver + etcd ${cpMiB().toFixed(0)} MiB)`,
    );
  }
  const createSeconds = secondsSince(createStart);
  const cpu1 = [...cpCpu(), process.cpuUsage().user + process.cpuUsage().system];
  const NAMESPACES = createdNs;
  const PODS = createdNs * PER_NS;
  const cores = (i: number) =>
    (((cpu1[i] as number) - (cpu0[i] as number)) / (i === 2 ? 1e6 : 1) / createSeconds).toFixed(2);
  const sizeLineHead = `size: ${PODS} pods over ${NAMESPACES} namespaces (requested ${REQUESTED_PODS} over ${REQUESTED_NAMESPACES}), created in ${createSeconds.toFixed(0)} s (${(PODS / createSeconds).toFixed(0)} pods/s); ${reason ? `limited by ${reason}` : "everything requested fit"}. CPU while creating, in cores of ${availableParallelism()}: kube-apiserver ${cores(0)}, etcd ${cores(1)}, this client ${cores(2)}; kube-apiserver + etcd RSS ${cpStart.toFixed(0)} -> ${cpMiB().toFixed(0)} MiB.`;
  const cpEnd = cpMiB();
  const projection =
    PODS < REQUESTED_PODS
      ? ` At the mean rate the requested ${REQUESTED_PODS} pods would take ${(REQUESTED_PODS / (PODS / createSeconds)).toFixed(0)} s to create and, at ${(((cpEnd - cpStart) / PODS) * 1024).toFixed(1)} KiB each, hold ${(cpStart + ((cpEnd - cpStart) / PODS) * REQUESTED_PODS).toFixed(0)} MiB in kube-apiserver + etcd.`
      : "";
  const sizeLine = `${sizeLineHead}${projection}`;
  console.log(sizeLine);

  // The bench's own view of every budget, for "all correct" and the handover.
  const cache = createCache(c.env.kubeConfig, {});
  await cache.getInformer(GPUBudget);
  void cache.start(abort.signal);
  await cache.waitForCacheSync(abort.signal);
  const wrongBudgets = async (only?: ReadonlySet<string>) =>
    // Read only: the cache's own objects, not a copy of 10,000 budgets each poll.
    (await cache.list(GPUBudget, { unsafeDisableDeepCopy: true })).filter((b) => {
      const namespace = b.metadata?.namespace ?? "";
      return (!only || only.has(namespace)) && b.status?.allocatedGPUs !== expected.get(namespace);
    });
  // The configuration being measured: aborted when it fails, so its steps stop (each checks it).
  let config = new AbortController();
  const allCorrect = (what: string, timeoutMs: number) =>
    eventually(
      async () => {
        if (config.signal.aborted) return performance.now();
        const wrong = await wrongBudgets();
        if (wrong.length > 0) throw new Error(`${what}: ${wrong.length} budgets not yet correct`);
        return performance.now();
      },
      timeoutMs,
      50,
    );

  // Each replica as its own ServiceAccount: the audit log then names the writer of each status write.
  const kubeconfigFor = async (name: string) => {
    await c.kubectl(["create", "serviceaccount", name, "-n", SA_NAMESPACE]);
    await c.kubectl([
      "create",
      "clusterrolebinding",
      `bench-${name}`,
      "--clusterrole=cluster-admin",
      `--serviceaccount=${SA_NAMESPACE}:${name}`,
    ]);
    const path = join(work, `${name}.kubeconfig`);
    await serviceAccountKubeconfig(
      c.env.binaries?.kubectl ?? "kubectl",
      c.env.kubeconfigPath,
      SA_NAMESPACE,
      name,
      path,
    );
    return path;
  };
  const replicaOf = (user: string) => {
    const prefix = `system:serviceaccount:${SA_NAMESPACE}:`;
    return user.startsWith(prefix) ? user.slice(prefix.length) : undefined;
  };
  const start = async (
    name: string,
    command: string[],
    env: Record<string, string>,
    extraArgs: string[] = [],
  ) => {
    const operator = await startOperator(project, c, {
      name,
      logDir: join(work, "logs"),
      serveWebhook: false,
      command: cgroups ? cgroups.wrap(name, command) : command,
      env: { ...env, KUBECONFIG: await kubeconfigFor(name) },
      extraArgs: [
        `--max-concurrent-reconciles=${values["max-concurrent-reconciles"]}`,
        `--zap-log-level=${values["log-level"]}`,
        ...extraArgs,
      ],
    });
    running.push(operator);
    return operator;
  };

  let wave = 0;
  /** One configuration's run, its operators started by `startAll`; `handover` runs last, on the running ones. */
  /**
   * One configuration; a replica that dies unasked (out of memory, a lost Lease) ends it at once with
   * its figures so far and the reason, and the run goes on to the next.
   */
  const measure = async (
    label: string,
    startAll: () => Promise<Operator[]>,
    handover?: (ops: Operator[], spare: (o: Operator) => void) => Promise<number>,
  ): Promise<ConfigFigures> => {
    const before = running.length;
    config = new AbortController();
    const spared = new Set<Operator>();
    // Peak RSS read every second, so a replica that dies still has one.
    const peaks = new Map<Operator, number>();
    const sampler = setInterval(() => {
      for (const o of running.slice(before)) {
        // A zombie reads 0: keep the last real reading.
        const peak = o.exited() ? 0 : peakRSSMiB(o.process.pid ?? 0);
        if (peak > 0) peaks.set(o, peak);
      }
    }, 1000);
    try {
      const ops = await startAll();
      const died = new Promise<never>((_, reject) => {
        for (const o of ops)
          o.process.once("exit", (code, signal) => {
            if (!spared.has(o))
              reject(new Error(`${o.name} exited (${code ?? signal}): ${lastWords(o.logFile)}`));
          });
      });
      died.catch(() => undefined);
      const measured = run(label, ops, handover, (o) => spared.add(o));
      // Once `died` wins, `measured` stops at its next step (config aborted) and its error goes nowhere.
      measured.catch(() => undefined);
      return await Promise.race([measured, died]);
    } catch (err) {
      const failure = (err as Error).message.split("\n")[0] ?? "";
      console.log(`${label}: failed: ${failure}`);
      return {
        label,
        replicas: running.slice(before).map((o) => ({
          name: o.name,
          peakRSSMiB: peaks.get(o) ?? Number.NaN,
          steadyRSSMiB: Number.NaN,
          readySeconds: o.readyMs / 1000,
          namespaces: 0,
        })),
        convergedSeconds: Number.NaN,
        latenciesMs: [],
        failure,
      };
    } finally {
      config.abort();
      clearInterval(sampler);
      for (const o of running.slice(before)) await o.kill();
    }
  };
  const run = async (
    label: string,
    ops: Operator[],
    handover: ((ops: Operator[], spare: (o: Operator) => void) => Promise<number>) | undefined,
    spare: (o: Operator) => void,
  ): Promise<ConfigFigures> => {
    const startedAt = performance.now();
    const step = () => config.signal.throwIfAborted();
    await allCorrect(`${label} start`, 20 * 60_000);
    step();
    console.log(
      `${label}: every budget correct ${secondsSince(startedAt).toFixed(1)} s after its replicas were ready`,
    );
    // The wave: one pod more in every namespace.
    wave++;
    const wavePods = Array.from({ length: NAMESPACES }, (_, i) => podOf(ns(i), `w${wave}`));
    await pool(wavePods, CONCURRENCY, async (p) => {
      step();
      await client.create(Pod, p);
    });
    for (const p of wavePods) {
      const namespace = p.metadata?.namespace ?? "";
      expected.set(namespace, (expected.get(namespace) ?? 0) + 1);
    }
    const lastCreate = performance.now();
    const converged = await allCorrect(`${label} wave`, 20 * 60_000);
    step();
    const latenciesMs = await statusLatencies(
      c.env.kubeConfig,
      client,
      wavePods,
      expected,
      Math.min(SAMPLES, wavePods.length),
    );
    // Steady: the median of VmRSS read every 250 ms for 5 s, with nothing to do.
    const readings = new Map<Operator, number[]>(ops.map((o) => [o, []]));
    for (let i = 0; i < 20; i++) {
      for (const o of ops) readings.get(o)?.push(rssMiB(o.process.pid ?? 0));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // The runtime's own count of what each shard caches (sharded replicas only), and what a TS replica's
    // RSS is made of: V8's heap (used of total) and what lies outside it (node, buffers, malloc).
    for (const o of ops) {
      const text = await o.metrics().catch(() => "");
      const objects = metricValue(text, "kbts_shard_objects", {});
      const members = metricValue(text, "kbts_shard_members", {});
      if (objects !== undefined)
        console.log(`  ${o.name}: kbts_shard_objects ${objects}, kbts_shard_members ${members ?? "?"}`);
      const heapUsed = metricValue(text, "nodejs_heap_size_used_bytes", {});
      const heapTotal = metricValue(text, "nodejs_heap_size_total_bytes", {});
      const rss = rssMiB(o.process.pid ?? 0);
      if (heapUsed !== undefined && heapTotal !== undefined) {
        const mib = (b: number) => (b / 2 ** 20).toFixed(0);
        console.log(
          `  ${o.name}: RSS ${rss.toFixed(0)} MiB = V8 heap ${mib(heapTotal)} MiB (${mib(heapUsed)} used) + ${(rss - heapTotal / 2 ** 20).toFixed(0)} MiB outside it`,
        );
      }
    }
    audit.poll();
    const owners = [...lastWriters(audit.writes, replicaOf).values()];
    const replicas: ReplicaFigures[] = ops.map((o) => {
      const rss = (readings.get(o) ?? []).sort((a, b) => a - b);
      return {
        name: o.name,
        peakRSSMiB: peakRSSMiB(o.process.pid ?? 0),
        steadyRSSMiB: rss[Math.floor(rss.length / 2)] ?? Number.NaN,
        readySeconds: o.readyMs / 1000,
        namespaces: owners.filter((w) => w.replica === o.name).length,
      };
    });
    const figures: ConfigFigures = {
      label,
      replicas,
      convergedSeconds: (converged - lastCreate) / 1000,
      latenciesMs,
    };
    step();
    if (handover) figures.handoverSeconds = await handover(ops, spare);
    step();
    for (const o of ops) {
      spare(o);
      await o.stop();
    }
    console.log(`${label}: done (load ${loadAverage()})`);
    console.log(scaleTable([figures]).split("\n").slice(2).join("\n"));
    return figures;
  };

  const configs: ConfigFigures[] = [];
  let handoverCheck: HandoverCheck | undefined;
  const unsharded = await measure("TS, 1 replica", async () => [
    await start("ts", bundle.command, bundle.env),
  ]);
  configs.push(unsharded);
  let goFigures: ConfigFigures | undefined;
  if (go.ok && !values["no-go"]) {
    goFigures = await measure("Go, 1 replica", async () => [await start("go", [go.bin], {})]);
    configs.push(goFigures);
  }
  let sharded: ConfigFigures | undefined;
  if (!values["no-sharded"]) {
    const members = Array.from({ length: SHARDS }, (_, i) => `shard-${i}`);
    sharded = await measure(
      `TS, ${SHARDS} shards`,
      async () => {
        const ops = await Promise.all(
          members.map((m) =>
            start(
              m,
              bundle.command,
              { ...bundle.env, POD_NAME: m, POD_IP: "127.0.0.1", POD_NAMESPACE: SA_NAMESPACE },
              [`--shard-ring=${RING}`],
            ),
          ),
        );
        // Settled: the members' Leases publish a split of every namespace, even within the members'
        // slack (the runtime cuts ranges where the namespaces are: sharding/ranges.ts balancedRanges).
        await eventually(
          async () => {
            const hashes = (await client.list(Namespace)).map((n) => fnv1a64(n.metadata?.name ?? ""));
            const published = new Map<string, HashRange[]>();
            for (const m of members) {
              const lease = await client.get(Lease, { namespace: SA_NAMESPACE, name: m });
              published.set(m, parseRanges(lease.metadata?.annotations?.[RANGES_ANNOTATION]));
            }
            if (!evenSplit(published, hashes)) throw new Error("the shards do not serve an even split yet");
          },
          120_000,
          100,
        );
        return ops;
      },
      async (ops, spare) => {
        // Each shard's namespaces: those whose budget it wrote last (every budget was written in the
        // wave). The victim is the shard with the most: the largest handover.
        audit.poll();
        const last = [...lastWriters(audit.writes, replicaOf)];
        const ownedBy = (name: string) =>
          last.filter(([, w]) => w.replica === name).map(([key]) => key.slice(0, key.indexOf("/")));
        const victim = [...ops].sort(
          (a, b) => ownedBy(b.name).length - ownedBy(a.name).length,
        )[0] as Operator;
        const owned = ownedBy(victim.name);
        const victimNs = new Set(owned);
        const byUser = new Map<string, number>();
        for (const w of audit.writes) byUser.set(w.user, (byUser.get(w.user) ?? 0) + 1);
        console.log(
          `audit log so far: budget status writes by ${[...byUser].map(([u, n]) => `${u} ${n}`).join(", ")}`,
        );
        const since = Date.now();
        const bump = async (name: string) => {
          await pool([...victimNs], CONCURRENCY, async (namespace) => {
            config.signal.throwIfAborted();
            await client.create(Pod, podOf(namespace, name));
            expected.set(namespace, (expected.get(namespace) ?? 0) + 1);
          });
        };
        // Work in flight when it dies: a pod more in each of its namespaces, then SIGKILL.
        await bump("h1");
        const killedAt = Date.now();
        const killedMark = performance.now();
        spare(victim);
        await victim.kill();
        // The fresh change a survivor must see: another pod in each.
        await bump("h2");
        const takenOver = () => {
          audit.poll();
          const last = lastWriters(audit.writes, replicaOf);
          return owned.filter((namespace) => {
            const w = last.get(`${namespace}/budget`);
            return w !== undefined && w.replica !== victim.name && w.end > killedAt;
          }).length;
        };
        const done = await eventually(
          async () => {
            if (config.signal.aborted) return performance.now();
            const wrong = await wrongBudgets(victimNs);
            const taken = takenOver();
            if (wrong.length > 0 || taken < owned.length)
              throw new Error(
                `handover: ${wrong.length} of ${owned.length} budgets not correct, ${taken} written by a survivor since the kill`,
              );
            return performance.now();
          },
          10 * 60_000,
          50,
        );
        config.signal.throwIfAborted();
        await allCorrect("after the handover", 60_000).catch(() => undefined);
        audit.poll();
        handoverCheck = {
          budgets: owned.length,
          takenOver: takenOver(),
          wrong: (await wrongBudgets()).length,
          overlapping: overlaps(writeWindows(audit.writes, since, replicaOf)),
        };
        console.log(
          `handover: ${victim.name} (${owned.length} namespaces) SIGKILLed with a pod in flight in each; another pod created in each after the kill`,
        );
        return (done - killedMark) / 1000;
      },
    );
    configs.push(sharded);
  }

  console.log(`\n${sizeLine}`);
  console.log(
    `wave: one new pod in each of the ${NAMESPACES} namespaces per configuration; latency: ${Math.min(SAMPLES, NAMESPACES)} pods one at a time going Succeeded, timed to the status update by a watch`,
  );
  console.log(scaleTable(configs));
  for (const c of configs) if (c.failure) console.log(`${c.label} failed: ${c.failure}`);
  for (const line of goalLines(unsharded, sharded, goFigures, handoverCheck)) console.log(line);
  console.log(
    `kube-apiserver + etcd RSS at the end: ${cpMiB().toFixed(0)} MiB; load average (1/5/15 min): ${loadAtStart} at the start, ${loadAverage()} at the end, on ${availableParallelism()} CPUs`,
  );
} finally {
  abort.abort();
  for (const o of running) await o.kill().catch(() => undefined);
  await cp?.stop().catch(() => undefined);
  cgroups?.remove();
  if (values.keep) console.log(`kept ${work} (operator logs in logs/, the audit log audit.log)`);
  else rmSync(work, { recursive: true, force: true });
}
// A failed configuration's last step may still hold a timer: the figures are printed, so end here.
process.exit(0);
