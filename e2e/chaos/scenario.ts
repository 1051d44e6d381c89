/**
 * The fault harness of issue 19: the GPUBudget operator (the golden scaffold, testdata/project-gpubudget,
 * exactly what `kbts create api --plugins gpu-budget/v1-alpha` writes) runs as two leader-elected
 * replicas behind a fault-injecting TCP proxy, under pod churn, against a real etcd + kube-apiserver.
 * Faults come one after another; after each, churn stops and the harness measures how long until
 * every budget's status equals the truth counted from the API server (Kubernetes' quota rule, truth.ts).
 * It also checks that each replica is alive (or was restarted by design, after stepping down), that RSS
 * stays bounded, and that no replica wrote a status while it did not hold the lease (leadership.ts).
 *
 * Used by e2e/chaos-control-plane.test.ts and e2e/chaos-network.test.ts (assert, one fault group each,
 * side by side) and bench/chaos/main.ts (prints the table).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineKind } from "../../runtime/src/api/kind.js";
import { Lease, Namespace, Pod } from "../../runtime/src/api/kinds.js";
import type { KubernetesObject } from "../../runtime/src/api/meta.js";
import { createCache } from "../../runtime/src/cache/cache.js";
import { createClient } from "../../runtime/src/client/client.js";
import type { Client } from "../../runtime/src/client/types.js";
import { type APIServerProcess, killAPIServer } from "../../runtime/src/envtest/apiserver-restart.js";
import { compactEtcd } from "../../runtime/src/envtest/etcd-compaction.js";
import { type FaultProxy, startFaultProxy } from "../../runtime/src/envtest/fault-proxy.js";
import { type Environment, startEnvironment } from "../../runtime/src/envtest/index.js";
import { freePort } from "../../runtime/src/envtest/ports.js";
import { startThrottleProxy, type ThrottleProxy } from "../../runtime/src/envtest/throttle-proxy.js";
import { eventually } from "../support/eventually.js";
import { REPO } from "../support/paths.js";
import { EventJournal, type JournalAccount } from "./journal.js";
import { nonLeaderWrites, type ReplicaLog } from "./leadership.js";
import { holdsGPUs } from "./truth.js";

interface GPUBudget extends KubernetesObject {
  spec: { maxGPUs: number };
  status?: { allocatedGPUs?: number };
}
const GPUBudget = defineKind<GPUBudget>({
  group: "capacity.lab.example.com",
  version: "v1alpha1",
  kind: "GPUBudget",
  plural: "gpubudgets",
  namespaced: true,
});

export interface FaultResult {
  fault: string;
  /** From the end of the fault until every budget was correct (ms). */
  correctAfterMs: number;
  deadlineMs: number;
  /** Peak RSS of the replicas over the fault (MiB). */
  peakRssMiB: number;
  /** Replicas restarted by design during the fault (a paused leader steps down and exits 1). */
  restarts: number;
  ok: boolean;
  problem?: string;
  /** The soak's event account after this fault, from the start of the run (journal.ts). */
  events?: JournalAccount;
}

export interface ChaosReport {
  results: FaultResult[];
  /** The soak's event account at the end (journal.ts); absent without `soakUntil`. */
  events?: JournalAccount;
  /** Status writes logged by a replica outside its own leading intervals (leadership.ts). */
  nonLeaderWrites: string[];
}

interface Replica {
  name: string;
  child: ChildProcess;
  logFile: string;
  probePort: number;
  exited: boolean;
  exitCode: number | null;
  /** A new replica was started in its place. */
  replaced?: boolean;
  /** Its SIGSTOP pauses (ms since the epoch): an in-flight write of a paused leader is excused. */
  pauses: ReplicaLog["pauses"];
}

/** Exit 1 after losing the lease: what a leader must do, and what a Deployment restarts. */
function leftByDesign(r: Replica): boolean {
  return r.exitCode === 1 && safeRead(r.logFile).includes("leader election lost");
}

const NAMESPACES = ["chaos-a", "chaos-b", "chaos-c", "chaos-d"];
const RSS_LIMIT_MIB = 512;

/**
 * Faults of the control plane and the operators (kills, pauses, compaction, 429s) and of the network
 * between them (the TCP proxy's latency, resets, black hole, frozen connections).
 */
export type FaultGroup = "control plane" | "network";

export interface ChaosOptions {
  log?: (line: string) => void;
  /**
   * The soak (bench/soak): repeat the faults, with 429 storms among them, until this time (ms since the
   * epoch), and account for every pod event an informer behind the same faults delivered (journal.ts).
   * Without it the faults run once (the chaos e2e, bench/chaos).
   */
  soakUntil?: number;
  /**
   * Only this group's faults, on an operator and control plane of their own: the e2e runs the two
   * groups as two files, side by side. All faults by default.
   */
  group?: FaultGroup;
  /**
   * Only the faults whose name matches (bench/chaos --only), for repeating one that failed. The SIGSTOP
   * fault pauses the kube-apiserver the kill fault restarted, so it needs that one in the filter too.
   */
  only?: RegExp;
  /** Runs the (filtered) faults this many times; 1 by default (bench/chaos --rounds). */
  rounds?: number;
}

export async function runChaos(options: ChaosOptions = {}): Promise<ChaosReport> {
  const say = options.log ?? (() => {});
  const soak = options.soakUntil !== undefined;
  const work = mkdtempSync(join(tmpdir(), "kbts-chaos-"));
  const project = join(work, "gpubudget");
  cpSync(join(REPO, "testdata/project-gpubudget"), project, { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(project, "node_modules"));
  execFileSync(process.execPath, [join(REPO, "bin/kbts.js"), "manifests"], { cwd: project, stdio: "ignore" });

  const env: Environment = await startEnvironment({ crdDirectoryPaths: [join(project, "config/crd/bases")] });
  let apiserver: Environment | APIServerProcess = env;
  let restarted: APIServerProcess | undefined;
  // The soak puts an HTTP proxy that can answer 429 between the TCP fault proxy and the API server.
  const throttle: ThrottleProxy | undefined = soak ? await startThrottleProxy(env.config!) : undefined;
  const proxy: FaultProxy = await startFaultProxy(throttle?.url ?? env.config!.host);
  const proxied = proxy.kubeConfigFor(throttle?.kubeConfig() ?? env.kubeConfig);
  const kubeconfig = join(work, "proxy.kubeconfig");
  writeFileSync(kubeconfig, proxied.exportConfig());
  const direct: Client = createClient(env.kubeConfig, { rest: { timeoutMs: 5_000 } });
  const replicas: Replica[] = [];
  const results: FaultResult[] = [];
  let peakRss = 0;

  const startReplica = async (name: string): Promise<Replica> => {
    const probePort = await freePort("127.0.0.1");
    const logFile = join(work, `${name}.log`);
    const log = createWriteStream(logFile, { flags: "a" });
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "cmd/main.ts",
        "--leader-elect",
        "--metrics-bind-address=0",
        `--health-probe-bind-address=127.0.0.1:${probePort}`,
        "--zap-devel=false",
      ],
      {
        cwd: project,
        env: { ...process.env, KUBECONFIG: kubeconfig, ENABLE_WEBHOOKS: "false" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    const replica: Replica = {
      name,
      child,
      logFile,
      probePort,
      exited: false,
      exitCode: null,
      pauses: [],
    };
    child.once("exit", (code) => {
      replica.exited = true;
      replica.exitCode = code;
    });
    replicas.push(replica);
    const state = await eventually(
      `${name} to be ready`,
      async () => {
        if (replica.exited) return "exited";
        const ready = await fetch(`http://127.0.0.1:${probePort}/readyz`).then(
          (r) => r.status === 200,
          () => false,
        );
        return ready ? "ready" : undefined;
      },
      90_000,
      100,
    );
    if (state === "exited") throw new Error(`${name} exited with ${replica.exitCode}: ${tail(logFile)}`);
    return replica;
  };

  const live = () => replicas.filter((r) => !r.exited);
  const pause = (r: Replica) => {
    r.pauses.push({ stoppedAt: Date.now() });
    r.child.kill("SIGSTOP");
  };
  const resume = (r: Replica) => {
    // The time before the signal: on a loaded machine the replica can run, and log its in-flight write,
    // before this process reads the clock again.
    const last = r.pauses.at(-1);
    if (last && last.resumedAt === undefined) last.resumedAt = Date.now();
    r.child.kill("SIGCONT");
  };
  const sampleRss = () => {
    for (const r of live()) {
      const m = /VmRSS:\s+(\d+) kB/.exec(safeRead(`/proc/${r.child.pid}/status`));
      if (m) peakRss = Math.max(peakRss, Number(m[1]) / 1024);
    }
  };

  // Churn: creates, completions and deletes of 1-GPU pods in every namespace, through the API server.
  let churning = false;
  let churnLoop: Promise<void> = Promise.resolve();
  let seq = 0;
  const journal = soak ? new EventJournal() : undefined;
  const churnOnce = async () => {
    const ns = NAMESPACES[seq % NAMESPACES.length]!;
    seq++;
    const pods = await direct.list(Pod, { namespace: ns });
    const running = pods.filter((p) => p.status?.phase !== "Succeeded");
    const r = Math.random();
    if (running.length < 8 || (r < 0.4 && running.length < 20)) {
      const made = await direct.create(Pod, gpuPod(ns, `p-${seq}`));
      journal?.wrote(made.metadata?.uid, made.metadata?.resourceVersion);
    } else if (r < 0.6) {
      const victim = running[Math.floor(Math.random() * running.length)]!;
      const done = await direct
        .status()
        .update(Pod, { ...victim, status: { ...victim.status, phase: "Succeeded" } });
      journal?.wrote(done.metadata?.uid, done.metadata?.resourceVersion);
    } else if (r < 0.75) {
      // Relabelled: the budgets have no selector, so the count must not move.
      const victim = pods[Math.floor(Math.random() * pods.length)]!;
      const labels = { ...victim.metadata?.labels, churn: String(seq) };
      const relabelled = await direct.update(Pod, { ...victim, metadata: { ...victim.metadata, labels } });
      journal?.wrote(relabelled.metadata?.uid, relabelled.metadata?.resourceVersion);
    } else {
      const victim = pods[Math.floor(Math.random() * pods.length)]!;
      await direct.delete(Pod, victim, { gracePeriodSeconds: 0 });
    }
  };
  const startChurn = () => {
    churning = true;
    churnLoop = (async () => {
      while (churning) {
        await churnOnce().catch(() => {}); // the API server may be down: that is the point
        sampleRss();
        await new Promise((r) => setTimeout(r, 40));
      }
    })();
  };
  const stopChurn = async () => {
    churning = false;
    await churnLoop;
  };

  const wrongBudgets = async (): Promise<string[]> => {
    const wrong: string[] = [];
    for (const ns of NAMESPACES) {
      const pods = await direct.list(Pod, { namespace: ns });
      const now = Date.now();
      const truth = pods.filter((p) => holdsGPUs(p, now)).length;
      const budget = await direct.get(GPUBudget, { namespace: ns, name: "gpus" });
      if (budget.status?.allocatedGPUs !== truth)
        wrong.push(`${ns}: ${budget.status?.allocatedGPUs} ≠ ${truth}`);
    }
    return wrong;
  };

  /**
   * Pods past their grace period that are still there: a grace-0 delete the churn gave up on during the
   * SIGSTOP fault can leave one (truth.ts). Neither the operator nor the truth counts them; the log says so.
   */
  const stuckTerminating = async (): Promise<string[]> => {
    const out: string[] = [];
    for (const ns of NAMESPACES) {
      const now = Date.now();
      for (const p of await direct.list(Pod, { namespace: ns }))
        if (p.metadata?.deletionTimestamp && !holdsGPUs(p, now)) out.push(`${ns}/${p.metadata.name}`);
    }
    return out;
  };

  /**
   * Evidence for a budget left wrong, for the problem line: each replica's last status write of it, and
   * whether one more pod event heals it. The nudge (a label on one of its pods) wakes the controller
   * without changing the count: healed, the operator's pod cache had the truth and a reconcile was
   * missing or skipped its write; still wrong, its cache lacks (or keeps) a pod.
   */
  const explainWrong = async (wrong: string[], healed: number): Promise<string> => {
    const out: string[] = [];
    for (const ns of wrong.map((w) => w.split(":")[0] ?? "").filter((n) => NAMESPACES.includes(n))) {
      const writes = replicas.map((r) => {
        const last = logEntries(r.logFile, "status updated")
          .filter((e) => e.namespace === ns)
          .at(-1);
        return last
          ? `${r.name} wrote ${last.allocatedGPUs} at ${Math.round((last.time - healed) / 100) / 10} s`
          : `${r.name} wrote none`;
      });
      let nudge: string;
      try {
        const pod = (await direct.list(Pod, { namespace: ns })).find((p) => p.status?.phase !== "Succeeded");
        if (!pod) throw new Error("no running pod to relabel");
        const labels = { ...pod.metadata?.labels, "chaos-nudge": String(Date.now()) };
        await direct.update(Pod, { ...pod, metadata: { ...pod.metadata, labels } });
        const fixed = await eventually(
          `${ns} to heal after a pod event`,
          async () => !(await wrongBudgets()).some((w) => w.startsWith(`${ns}:`)) || undefined,
          10_000,
          200,
        ).catch(() => false);
        nudge = fixed ? "correct after one more pod event" : "still wrong after one more pod event";
      } catch (err) {
        nudge = `nudge failed: ${err instanceof Error ? err.message : String(err)}`;
      }
      out.push(`${ns}: ${writes.join(", ")} (from the end of the fault); ${nudge}`);
    }
    return out.join("; ");
  };

  const leaderReplica = async (): Promise<Replica | undefined> => {
    const lease = await direct.get(Lease, { namespace: "default", name: "a4aa2a1b.lab.example.com" });
    const holder = lease.spec?.holderIdentity ?? "";
    // By the identity each replica's elector logs as its own: a follower's log names the holder too
    // ("new leader elected", leader: <holder>), so a plain search could pick a follower.
    return live().find((r) => holder !== "" && electorIdentity(r.logFile) === holder);
  };

  interface Fault {
    name: string;
    group: FaultGroup;
    deadlineMs: number;
    /** Injects the fault, lets churn run through it, and heals it. */
    run(): Promise<void>;
  }
  const hold = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const faults: Fault[] = [
    {
      name: "kube-apiserver killed and restarted",
      group: "control plane",
      deadlineMs: 30_000,
      async run() {
        const killed = await killAPIServer(apiserver, env);
        await hold(3_000);
        restarted = await killed.start();
        apiserver = restarted;
      },
    },
    {
      name: "kube-apiserver stopped (SIGSTOP) 8 s",
      group: "control plane",
      deadlineMs: 30_000,
      async run() {
        if (!restarted) throw new Error("needs the restarted kube-apiserver of the previous fault");
        const pid = restarted.pid;
        process.kill(-pid, "SIGSTOP");
        await hold(8_000);
        process.kill(-pid, "SIGCONT");
      },
    },
    {
      name: "operators paused 8 s while etcd is compacted",
      group: "control plane",
      deadlineMs: 30_000,
      async run() {
        for (const r of live()) pause(r);
        await hold(4_000);
        await compactEtcd(env.etcdURL!);
        await hold(4_000);
        for (const r of live()) resume(r);
      },
    },
    {
      name: "leader paused 20 s (two replicas)",
      group: "control plane",
      deadlineMs: 30_000,
      async run() {
        const leader = await leaderReplica();
        if (!leader) throw new Error("no replica holds the lease");
        pause(leader);
        await hold(20_000);
        resume(leader);
        // It finds another holder, steps down at once and exits 1 (restarted below, by design).
        await eventually(
          `${leader.name} to step down and exit`,
          async () => leader.exited || undefined,
          20_000,
          100,
        );
        if (!safeRead(leader.logFile).includes("stepping down at once")) {
          throw new Error(`${leader.name} exited ${leader.exitCode} without stepping down`);
        }
      },
    },
    {
      name: "proxy: 200 ms latency for 6 s",
      group: "network",
      deadlineMs: 15_000,
      async run() {
        proxy.setLatency(200);
        await hold(6_000);
        proxy.setLatency(0);
      },
    },
    {
      name: "proxy: connections reset every 3 s for 9 s",
      group: "network",
      deadlineMs: 10_000,
      async run() {
        proxy.resetEvery(3_000);
        await hold(9_000);
        proxy.stopResets();
        proxy.resetAll();
      },
    },
    {
      name: "proxy: traffic black-holed 15 s",
      group: "network",
      deadlineMs: 45_000,
      async run() {
        proxy.freezeOpen();
        proxy.blackhole(true);
        await hold(15_000);
        proxy.blackhole(false);
      },
    },
    ...(throttle
      ? ([
          {
            // API Priority and Fairness saturated: every read answered 429 with Retry-After: 1, writes
            // pass. Shorter than the leader's renew deadline, so the leader keeps its lease.
            name: "kube-apiserver answers 429 to every read for 6 s",
            group: "control plane",
            deadlineMs: 30_000,
            async run() {
              throttle.throttle("all", 1);
              await hold(6_000);
              throttle.throttle("none");
            },
          },
          {
            name: "watches dropped by the API server side",
            group: "control plane",
            deadlineMs: 15_000,
            async run() {
              throttle.dropConnections();
            },
          },
        ] satisfies Fault[])
      : []),
    {
      name: "proxy: open connections frozen forever",
      group: "network",
      deadlineMs: 45_000,
      async run() {
        proxy.freezeOpen();
      },
    },
  ];

  // The soak's informer: the runtime's cache, behind the same proxies as the operators, whose every
  // pod event goes to the journal.
  const journalStop = new AbortController();
  const truth = async (): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    for (const ns of NAMESPACES)
      for (const p of await direct.list(Pod, { namespace: ns }))
        if (p.metadata?.uid) out.set(p.metadata.uid, p.metadata.resourceVersion ?? "");
    return out;
  };
  /** Waits until the journal's informer has caught up with the API server, then accounts. */
  const accountEvents = async (deadlineMs: number): Promise<JournalAccount | undefined> => {
    if (!journal) return undefined;
    const until = Date.now() + deadlineMs;
    let now = await truth();
    while (!journal.caughtUp(now) && Date.now() < until) {
      await hold(200);
      now = await truth();
    }
    return journal.account(now);
  };

  try {
    for (const ns of NAMESPACES) {
      await direct.create(Namespace, { metadata: { name: ns } });
      await direct.create(GPUBudget, {
        metadata: { name: "gpus", namespace: ns },
        spec: { maxGPUs: 1000 },
      } as GPUBudget);
      for (let i = 0; i < 10; i++) await direct.create(Pod, gpuPod(ns, `seed-${i}`));
    }
    if (journal) {
      const cache = createCache(proxied, { namespaces: NAMESPACES });
      const pods = await cache.getInformer(Pod);
      pods.addEventHandler((e) =>
        journal.saw({
          type: e.type,
          uid: e.object.metadata?.uid ?? "",
          resourceVersion: e.object.metadata?.resourceVersion ?? "",
          relisted: e.type === "delete" ? e.deleteStateUnknown : e.relisted === true,
        }),
      );
      void cache.start(journalStop.signal);
    }
    await startReplica("replica-1");
    await startReplica("replica-2");
    await eventually(
      "the first budgets",
      async () => (await wrongBudgets()).length === 0 || undefined,
      60_000,
      100,
    );
    say("two replicas ready, budgets correct; faults start");

    let round = 0;
    do {
      round++;
      if (soak || (options.rounds ?? 1) > 1) say(`round ${round}`);
      for (const fault of faults) {
        if (options.only && !options.only.test(fault.name)) continue;
        if (options.group && fault.group !== options.group) continue;
        peakRss = 0;
        const before = replicas.length;
        const faultStart = Date.now();
        startChurn();
        await hold(2_000);
        let problem: string | undefined;
        try {
          await fault.run();
        } catch (err) {
          problem = `fault failed: ${err instanceof Error ? err.message : String(err)}`;
        }
        await hold(1_000);
        await stopChurn();
        const healed = Date.now();
        // A leader that could not renew (or saw another holder) exits 1 by design; the Deployment would
        // start it again, and so does the harness. Its recovery counts in the time to correct status.
        const restarting = Promise.all(
          replicas
            .filter((x) => x.exited && !x.replaced && leftByDesign(x))
            .map((r) => {
              r.replaced = true;
              return startReplica(`${r.name}'`).catch((err) => {
                problem ??= `restart of ${r.name} failed: ${err instanceof Error ? err.message : String(err)}`;
              });
            }),
        );
        let correctAfterMs = Number.NaN;
        let lastWrong: string[] = [];
        while (Date.now() - healed < fault.deadlineMs + 5_000) {
          sampleRss();
          lastWrong = await wrongBudgets().catch((err) => [String(err)]);
          if (lastWrong.length === 0) {
            correctAfterMs = Date.now() - healed;
            break;
          }
          await hold(100);
        }
        await restarting;
        const restarts = replicas.length - before;
        sampleRss();
        const dead = replicas
          .filter((r) => r.exited && !leftByDesign(r))
          .map((r) => `${r.name} exited ${r.exitCode}: ${tail(r.logFile).slice(-600)}`);
        if (!problem && Number.isNaN(correctAfterMs)) {
          // Who led, and when, is what a wrong count is usually about (a failover inside the fault).
          const leaders = replicas.flatMap((r) =>
            logTimes(r.logFile, "successfully acquired lease")
              .filter((t) => t >= faultStart)
              .map((t) => `${r.name} at +${t - faultStart} ms`),
          );
          problem = `budgets still wrong: ${lastWrong.join(", ")}; leases acquired during the fault: ${leaders.join(", ") || "none"}; ${await explainWrong(lastWrong, healed)}`;
        }
        if (!problem && correctAfterMs > fault.deadlineMs)
          problem = `correct only after ${correctAfterMs} ms`;
        if (!problem && dead.length > 0) problem = `replica died: ${dead.join(", ")}`;
        if (!problem && live().length !== 2) problem = `${live().length} replicas alive, want 2`;
        if (!problem && peakRss > RSS_LIMIT_MIB)
          problem = `RSS ${Math.round(peakRss)} MiB > ${RSS_LIMIT_MIB} MiB`;
        // The account runs from the start; a fault is blamed only for what grew during it.
        const counted = results.at(-1)?.events;
        const events = await accountEvents(fault.deadlineMs);
        const missed = [
          ...(events?.missed.filter((m) => !counted?.missed.includes(m)) ?? []),
          ...(events?.stale ?? []),
        ];
        if (!problem && missed.length > 0) problem = `events missed: ${missed.slice(0, 5).join("; ")}`;
        const twice = (events?.duplicated ?? 0) - (counted?.duplicated ?? 0);
        const late = (events?.outOfOrder ?? 0) - (counted?.outOfOrder ?? 0);
        if (!problem && twice + late > 0) problem = `events delivered twice: ${twice}, out of order: ${late}`;
        const result: FaultResult = {
          fault: fault.name,
          correctAfterMs,
          deadlineMs: fault.deadlineMs,
          peakRssMiB: Math.round(peakRss),
          restarts,
          ok: problem === undefined,
          problem,
          events,
        };
        results.push(result);
        const stuck = await stuckTerminating().catch(() => []);
        say(
          `${fault.name}: ${problem ?? `correct after ${correctAfterMs} ms`}${stuck.length > 0 ? ` (left terminating, not counted: ${stuck.join(", ")})` : ""}`,
        );
      }
    } while (
      (options.soakUntil !== undefined && Date.now() < options.soakUntil) ||
      round < (options.rounds ?? 1)
    );
    const report: ChaosReport = {
      results,
      events: results.at(-1)?.events,
      nonLeaderWrites: nonLeaderWrites(
        replicas.map((r) => ({
          name: r.name,
          acquired: logTimes(r.logFile, "successfully acquired lease"),
          writes: logTimes(r.logFile, "status updated"),
          pauses: r.pauses,
        })),
      ),
    };
    const passed = report.results.every((r) => r.ok) && report.nonLeaderWrites.length === 0;
    if (!passed) keepLogs(replicas, chaosTable(report));
    return report;
  } catch (err) {
    keepLogs(replicas, `the run failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    throw err;
  } finally {
    await stopChurn();
    journalStop.abort();
    for (const r of replicas) {
      r.child.kill("SIGCONT");
      r.child.kill("SIGKILL");
    }
    await proxy.close();
    await throttle?.close();
    await restarted?.stop();
    await env.stop();
    if (!process.env.KBTS_KEEP_CHAOS) rmSync(work, { recursive: true, force: true });
  }
}

/** Where a failed run leaves its replicas' logs, in the checkout it ran from (fresh-clone copies it out). */
export const CHAOS_RESULTS = join(REPO, ".test-results/chaos");
/** Each replica log kept is at most its last this many bytes (a soak's logs run for hours). */
const KEPT_LOG_BYTES = 4 * 1024 * 1024;

/**
 * A failed run's evidence, kept past the temp directory's removal: each replica's log (its tail) and
 * what failed, in CHAOS_RESULTS/<time>/. A wrong budget is only explained by what the replicas logged
 * (which one led, what each wrote and when, which watches broke), and a flake seldom repeats on demand.
 */
function keepLogs(replicas: readonly Replica[], summary: string): void {
  try {
    const dir = join(CHAOS_RESULTS, new Date().toISOString().replace(/[:.]/g, "-"));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "result.md"), `${summary}\n`);
    for (const r of replicas) {
      const log = safeRead(r.logFile);
      writeFileSync(
        join(dir, `${r.name}.log`),
        log.length > KEPT_LOG_BYTES ? log.slice(-KEPT_LOG_BYTES) : log,
      );
    }
  } catch {
    // Best effort: the failure itself is what the caller reports.
  }
}

/**
 * A Markdown table of the figures, as the closing note and the benchmarks print it: one row per fault,
 * with how often it ran (more than once in a soak), its worst time to correct budgets, its peak RSS, the
 * restarts it caused, and its first problem.
 */
export function chaosTable(report: ChaosReport): string {
  const byFault = new Map<string, FaultResult[]>();
  for (const r of report.results) byFault.set(r.fault, [...(byFault.get(r.fault) ?? []), r]);
  const rows = [...byFault].map(([fault, runs]) => {
    const times = runs.map((r) => r.correctAfterMs).filter((t) => !Number.isNaN(t));
    const worst = times.length === runs.length ? `${(Math.max(...times) / 1000).toFixed(1)} s` : "never";
    const failed = runs.filter((r) => !r.ok);
    const result =
      failed.length === 0
        ? "ok"
        : runs.length === 1
          ? failed[0]?.problem
          : `${failed.length} failed: ${failed[0]?.problem}`;
    const peak = Math.max(...runs.map((r) => r.peakRssMiB));
    const restarts = runs.reduce((n, r) => n + r.restarts, 0);
    return `| ${fault} | ${runs.length} | ${worst} | ${(runs[0]?.deadlineMs ?? 0) / 1000} s | ${peak} MiB | ${restarts} | ${result} |`;
  });
  return [
    "| fault | runs | budgets correct after (worst) | deadline | peak RSS | restarts | result |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `status writes by a non-leader: ${report.nonLeaderWrites.length}`,
  ].join("\n");
}

/** The JSON log lines of one message, with their time in ms since the epoch. */
function logEntries(file: string, msg: string): (Record<string, unknown> & { time: number })[] {
  const out: (Record<string, unknown> & { time: number })[] = [];
  for (const line of safeRead(file).split("\n")) {
    if (!line.includes(msg)) continue;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      const time = typeof entry.time === "number" ? entry.time : Date.parse(String(entry.time));
      if (entry.msg === msg && !Number.isNaN(time)) out.push({ ...entry, time });
    } catch {
      // not a JSON log line
    }
  }
  return out;
}

function logTimes(file: string, msg: string): number[] {
  const out: number[] = [];
  for (const line of safeRead(file).split("\n")) {
    if (!line.includes(msg)) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; time?: number | string };
      if (entry.msg === msg && entry.time !== undefined)
        out.push(typeof entry.time === "number" ? entry.time : Date.parse(entry.time));
    } catch {
      // not a JSON log line
    }
  }
  return out;
}

function gpuPod(namespace: string, name: string): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace },
    spec: {
      containers: [
        {
          name: "main",
          image: "registry.k8s.io/pause:3.10",
          resources: { requests: { "nvidia.com/gpu": "1" }, limits: { "nvidia.com/gpu": "1" } },
        },
      ],
    },
  };
}

/** The identity a replica's leader elector gives itself, from the first log line that carries it. */
function electorIdentity(file: string): string | undefined {
  for (const line of safeRead(file).split("\n")) {
    if (!line.includes('"component":"leader-election"')) continue;
    try {
      const entry = JSON.parse(line) as { identity?: string };
      if (entry.identity) return entry.identity;
    } catch {
      // not a JSON log line
    }
  }
  return undefined;
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function tail(path: string): string {
  return safeRead(path).slice(-3000);
}
