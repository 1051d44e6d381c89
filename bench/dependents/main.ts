// bench/dependents: API writes and reconciles per steady-state resync (issue 31, item 5), for a
// Memcached operator written by hand in the shape of Kubebuilder's tutorial and for the same
// operator as one Deployment dependent (dependentsController). Both run against one local control
// plane, one after the other, each on its own namespaces, every write counted through its client.
// A resync re-delivers every primary to its controller; the tutorial's reconcile then writes its
// status each time (an unchanged Status().Update is still a request), the dependent one writes nothing.
// Run: KUBEBUILDER_ASSETS=... node --import tsx bench/dependents/main.ts [primaries] [namespaces]
import { eventually } from "../../e2e/support/eventually.js";
import { WriteCounter } from "../../runtime/src/dependent/testdata/write-counter.js";
import { startEnvironment } from "../../runtime/src/envtest/index.js";
import {
  type Client,
  type Condition,
  controllerManagedBy,
  createClient,
  createLogger,
  createManager,
  Deployment,
  defineKind,
  dependent,
  dependentsController,
  isNotFound,
  type KubeConfig,
  type KubernetesObject,
  type Manager,
  Namespace,
  setControllerReference,
  setStatusCondition,
} from "../../runtime/src/index.js";
import { schemalessCRD } from "../../runtime/src/internal/testdata/crd.js";

const PRIMARIES = Number(process.argv[2] ?? 1_000);
const NAMESPACES = Number(process.argv[3] ?? 10);

interface Memcached extends KubernetesObject {
  spec: { size: number };
  status?: { conditions?: Condition[] };
}
const Memcached = defineKind<Memcached>({
  group: "cache.example.com",
  version: "v1alpha1",
  kind: "Memcached",
  plural: "memcacheds",
  namespaced: true,
});
const memcachedCRD = schemalessCRD({
  group: "cache.example.com",
  version: "v1alpha1",
  kind: "Memcached",
  plural: "memcacheds",
  scope: "Namespaced",
});

function deploymentFor(m: Memcached): Deployment {
  const labels = {
    "app.kubernetes.io/name": "memcached",
    "app.kubernetes.io/instance": m.metadata?.name ?? "",
  };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: m.metadata?.name, namespace: m.metadata?.namespace },
    spec: {
      replicas: m.spec.size,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: "memcached",
              image: "memcached:1.6.26-alpine3.19",
              command: ["memcached", "--memory-limit=64", "-o", "modern", "-v"],
              ports: [{ containerPort: 11211, name: "memcached" }],
            },
          ],
        },
      },
    },
  };
}

/** The tutorial's reconcile, minus the finalizer and events: ensure the Deployment, then write status. */
function handWritten(mgr: Manager, counted: { reconciles: number }): void {
  const client = mgr.getClient();
  controllerManagedBy(mgr)
    .for(Memcached)
    .owns(Deployment)
    .named("memcached-hand")
    .complete({
      async reconcile(req) {
        counted.reconciles++;
        let m: Memcached;
        try {
          m = await client.get(Memcached, { namespace: req.namespace, name: req.name });
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
        let found: Deployment | undefined;
        try {
          found = await client.get(Deployment, { namespace: req.namespace, name: req.name });
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
        if (!found) {
          const dep = deploymentFor(m);
          setControllerReference(m, dep);
          await client.create(Deployment, dep);
        } else if (found.spec?.replicas !== m.spec.size) {
          await client.update(Deployment, {
            ...found,
            spec: { ...found.spec, replicas: m.spec.size },
          } as Deployment);
        }
        const conditions = [...(m.status?.conditions ?? [])];
        setStatusCondition(conditions, {
          type: "Available",
          status: "True",
          reason: "Reconciling",
          message: `Deployment for custom resource (${m.metadata?.name}) with ${m.spec.size} replicas created successfully`,
        });
        await client.status().update(Memcached, { ...m, status: { ...m.status, conditions } });
        return undefined;
      },
    });
}

function withDependents(mgr: Manager, counted: { reconciles: number }): void {
  dependentsController(mgr, Memcached, {
    name: "memcached-dependents",
    dependents: [dependent(Deployment, { desired: (m: Memcached) => deploymentFor(m) })],
    onReconciled: () => {
      counted.reconciles++;
    },
  });
}

interface Figures {
  setupWrites: number;
  writes: number;
  reconciles: number;
  cpuMs: number;
}

async function run(
  direct: Client,
  kubeConfig: KubeConfig,
  prefix: string,
  condition: string,
  operator: (mgr: Manager, counted: { reconciles: number }) => void,
): Promise<Figures> {
  const namespaces = Array.from({ length: NAMESPACES }, (_, i) => `${prefix}-${i}`);
  for (const name of namespaces) await direct.create(Namespace, { metadata: { name } });
  const writes = new WriteCounter();
  const counted = { reconciles: 0 };
  const mgr = createManager({
    kubeConfig,
    logger: createLogger({ level: "error" }),
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
    cache: { namespaces },
    newClient: (kc, o) => writes.wrap(createClient(kc, { cache: o.cache, logger: o.logger })),
  });
  operator(mgr, counted);
  const stop = new AbortController();
  const done = mgr.start(stop.signal);
  try {
    const names = Array.from({ length: PRIMARIES }, (_, i) => ({
      namespace: namespaces[i % NAMESPACES] as string,
      name: `m-${i}`,
    }));
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < names.length) {
          const n = names[next++] as { namespace: string; name: string };
          await direct.create(Memcached, { metadata: n, spec: { size: 1 } } as Memcached);
        }
      }),
    );
    const cache = mgr.getCache();
    await eventually(
      `every Memcached ${condition}`,
      async () => {
        const all = await cache.list(Memcached);
        const ok = all.filter((m) =>
          m.status?.conditions?.some((c) => c.type === condition && c.status === "True"),
        );
        return ok.length === PRIMARIES || undefined;
      },
      600_000,
      500,
    );
    await quiet(counted);
    const setupWrites = writes.total;
    const r0 = counted.reconciles;
    const cpu0 = process.cpuUsage();
    const informer = (await cache.getInformer(Memcached)) as { resync?: () => void };
    if (!informer.resync) throw new Error("the cache's informer has no resync()");
    informer.resync();
    await eventually(
      "one resync's reconciles",
      () => (counted.reconciles - r0 >= PRIMARIES ? true : undefined),
      600_000,
      50,
    );
    await quiet(counted);
    const cpu = process.cpuUsage(cpu0);
    return {
      setupWrites,
      writes: writes.total - setupWrites,
      reconciles: counted.reconciles - r0,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  } finally {
    stop.abort();
    await done;
  }
}

/** Waits until no reconcile has run for a second (the queue has drained). */
async function quiet(counted: { reconciles: number }): Promise<void> {
  let last = counted.reconciles;
  let since = Date.now();
  await eventually(
    "the queue to drain",
    () => {
      if (counted.reconciles !== last) {
        last = counted.reconciles;
        since = Date.now();
      }
      return Date.now() - since >= 1_000 ? true : undefined;
    },
    600_000,
    100,
  );
}

async function main(): Promise<void> {
  const env = await startEnvironment({ crds: [memcachedCRD] });
  try {
    const direct = createClient(env.kubeConfig);
    const hand = await run(direct, env.kubeConfig, "hand", "Available", handWritten);
    const deps = await run(direct, env.kubeConfig, "deps", "Ready", withDependents);
    const line = (name: string, f: Figures) =>
      `${name}: ${f.writes} API writes and ${f.reconciles} reconciles per steady-state resync of ${PRIMARIES} primaries (${(f.cpuMs / Math.max(1, f.reconciles)).toFixed(2)} ms CPU per reconcile, process-wide; ${f.setupWrites} writes to get there)`;
    console.log(line("hand-written (Kubebuilder tutorial shape)", hand));
    console.log(line("dependents (dependentsController)", deps));
  } finally {
    await env.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
