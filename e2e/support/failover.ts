/**
 * Failover timing for warm standbys (issue 17.4), shared by e2e/warm-standby.test.ts and
 * bench/failover: two manager processes on one lease, a controller for Pods in each; the leader is
 * SIGKILLed right after a renewal and the time to the new leader's first reconcile is measured, with
 * the follower cold (informers started once it leads) or warm (enableWarmup: started before).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Lease, Namespace, Pod } from "../../runtime/src/api/kinds.js";
import type { Client } from "../../runtime/src/client/types.js";
import { eventually } from "./eventually.js";
import { freePort } from "./free-port.js";
import { REPO } from "./paths.js";

export interface FailoverTiming {
  mode: "cold" | "warm";
  /** SIGKILL of the leader → the standby holds the lease. */
  killToLeadingMs: number;
  /** SIGKILL of the leader → the standby's first reconcile. */
  killToFirstReconcileMs: number;
  /** The standby holds the lease → its first reconcile: the relist a warm standby saves. */
  leadingToFirstReconcileMs: number;
  /** Pod lists the standby's informer had made when it started leading, and at its first reconcile. */
  listsWhenLeading: number;
  listsAtFirstReconcile: number;
  /** The standby reconciled before it led (must never happen). */
  reconciledBeforeLeading: boolean;
}

/** Creates `count` pods spread over `namespaces` (created as needed), `concurrency` at a time. */
export async function createPods(
  client: Client,
  namespaces: string[],
  count: number,
  concurrency = 32,
): Promise<void> {
  for (const name of namespaces) {
    await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name } });
  }
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const namespace = namespaces[i % namespaces.length] as string;
      await client.create(Pod, {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: `pod-${i}`, namespace, labels: { app: "failover", shard: String(i % 16) } },
        spec: {
          containers: [
            {
              name: "main",
              image: "registry.example/failover:1.0",
              env: [{ name: "INDEX", value: String(i) }],
              resources: { requests: { cpu: "10m", memory: "16Mi" } },
            },
          ],
        },
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

interface Replica {
  child: ChildProcess;
  output: () => string;
  probePort: number;
  /** The parsed line of a message the replica printed, once it has. */
  line(msg: string): { at: number; lists: number } | undefined;
}

function childScript(
  kubeconfigPath: string,
  leaseNamespace: string,
  leaseName: string,
  warm: boolean,
): string {
  const runtime = pathToFileURL(join(REPO, "runtime", "src", "index.ts")).href;
  return `import { controllerManagedBy, createLogger, createManager, loadKubeConfig, Pod } from ${JSON.stringify(runtime)};
const mgr = createManager({
  kubeConfig: loadKubeConfig({ path: ${JSON.stringify(kubeconfigPath)} }),
  logger: createLogger({ level: "warn" }),
  healthProbeBindAddress: "127.0.0.1:" + process.env.PROBE_PORT,
  leaderElection: true, leaderElectionID: ${JSON.stringify(leaseName)}, leaderElectionNamespace: ${JSON.stringify(leaseNamespace)},
  // Short lease for a quick test; retryPeriod short so when the standby notices expiry varies little.
  leaseDurationMs: 2000, renewDeadlineMs: 1500, retryPeriodMs: 100,
  enableWarmup: ${warm},
});
const lists = () => mgr.getCache().peekInformer?.(Pod)?.reflectors.reduce((n, r) => n + r.stats.lists, 0) ?? 0;
const say = (msg) => console.log(JSON.stringify({ msg, at: Date.now(), lists: lists() }));
let first = true;
controllerManagedBy(mgr).for(Pod).named("failover").complete({
  async reconcile() {
    if (first) { first = false; say("FIRST_RECONCILE"); }
  },
});
mgr.elected().then(() => say("LEADING"));
await mgr.start();
`;
}

async function startReplica(script: string): Promise<Replica> {
  const probePort = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PROBE_PORT: String(probePort) },
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const line = (msg: string) => {
    for (const l of out.split("\n")) {
      if (!l.includes(`"msg":"${msg}"`)) continue;
      try {
        return JSON.parse(l) as { at: number; lists: number };
      } catch {}
    }
    return undefined;
  };
  return { child, output: () => out, probePort, line };
}

async function ready(replica: Replica): Promise<true | undefined> {
  const res = await fetch(`http://127.0.0.1:${replica.probePort}/readyz`);
  return res.status === 200 ? true : undefined;
}

function withOutput<T>(replica: Replica, p: Promise<T>): Promise<T> {
  return p.catch((err: Error) => {
    throw new Error(`${err.message}\nreplica output:\n${replica.output().slice(-4000)}`);
  });
}

/**
 * One failover: a leader, then a standby (ready: synced, and warm if `warm`), the leader killed just
 * after a lease renewal, and the standby's timings.
 */
export async function measureFailover(options: {
  client: Client;
  kubeconfigPath: string;
  leaseNamespace: string;
  warm: boolean;
  timeoutMs?: number;
}): Promise<FailoverTiming> {
  const { client, leaseNamespace, warm } = options;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const mode = warm ? "warm" : "cold";
  const leaseName = `failover-${mode}-${Date.now()}`;
  const dir = mkdtempSync(join(tmpdir(), "kbts-failover-"));
  const script = join(dir, "replica.mts");
  writeFileSync(script, childScript(options.kubeconfigPath, leaseNamespace, leaseName, warm));
  const replicas: Replica[] = [];
  try {
    const leader = await startReplica(script);
    replicas.push(leader);
    await withOutput(
      leader,
      eventually(
        "the first replica to lead and reconcile",
        async () => leader.line("FIRST_RECONCILE"),
        timeoutMs,
      ),
    );
    const standby = await startReplica(script);
    replicas.push(standby);
    await withOutput(
      standby,
      eventually("the standby to be ready", () => ready(standby), timeoutMs, 50),
    );
    // Kill right after a renewal, so the lease's remaining time (and when the standby sees it expire)
    // is the same in every run.
    const renewTime = async () =>
      (await client.get(Lease, { namespace: leaseNamespace, name: leaseName })).spec?.renewTime;
    const before = await renewTime();
    await eventually(
      "a lease renewal",
      async () => ((await renewTime()) !== before ? true : undefined),
      10_000,
      5,
    );
    const killedAt = Date.now();
    leader.child.kill("SIGKILL");
    const first = await withOutput(
      standby,
      eventually("the standby's first reconcile", async () => standby.line("FIRST_RECONCILE"), timeoutMs, 10),
    );
    const leading = standby.line("LEADING");
    if (!leading) throw new Error(`the standby reconciled without leading:\n${standby.output()}`);
    return {
      mode,
      killToLeadingMs: leading.at - killedAt,
      killToFirstReconcileMs: first.at - killedAt,
      leadingToFirstReconcileMs: first.at - leading.at,
      listsWhenLeading: leading.lists,
      listsAtFirstReconcile: first.lists,
      reconciledBeforeLeading: first.at < leading.at,
    };
  } finally {
    for (const r of replicas) r.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

export function describeTiming(t: FailoverTiming): string {
  return `${t.mode}: kill → first reconcile ${t.killToFirstReconcileMs} ms (kill → leading ${t.killToLeadingMs} ms, leading → first reconcile ${t.leadingToFirstReconcileMs} ms; pod lists when leading ${t.listsWhenLeading}, at first reconcile ${t.listsAtFirstReconcile})`;
}
