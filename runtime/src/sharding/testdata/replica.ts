/**
 * One sharded replica for sharding.int.test.ts, run as a child process (so a test can SIGKILL it):
 * a manager in ring "test" whose ConfigMap controller writes an annotation on every reconcile and
 * prints each reconcile's start and end as JSON lines, the write log the test checks for overlaps.
 * argv: kubeconfig path, identity, mechanism (label, the default, keyed by namespace; shardSelector keyed by uid).
 */
import { ConfigMap } from "../../api/kinds.js";
import { controllerManagedBy } from "../../builder/builder.js";
import { loadKubeConfig } from "../../client/config.js";
import { mergePatch } from "../../client/patch.js";
import { createLogger } from "../../log/logger.js";
import { createManager } from "../../manager/manager.js";

const [kubeconfig, identity, mechanism = "label"] = process.argv.slice(2) as [
  string,
  string,
  ("label" | "shardSelector")?,
];
const say = (fields: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(fields)}\n`);

const mgr = createManager({
  kubeConfig: loadKubeConfig({ path: kubeconfig }),
  logger: createLogger({ level: process.env.KBTS_TEST_LOG_LEVEL ?? "silent" }),
  healthProbeBindAddress: "0",
  metricsBindAddress: "127.0.0.1:0",
  cache: { byObject: { "v1/ConfigMap": { labelSelector: "app=sharded" } } },
  sharding: {
    ring: "test",
    identity,
    mechanism,
    key: mechanism === "label" ? "namespace" : "uid",
    namespace: "shards",
    leaseDurationMs: 3_000,
    renewDeadlineMs: 2_000,
    retryPeriodMs: 500,
  },
});
const client = mgr.getClient();
controllerManagedBy(mgr)
  .for(ConfigMap)
  .complete({
    async reconcile(req) {
      const key = `${req.namespace}/${req.name}`;
      say({ ev: "start", replica: identity, key, t: Date.now() });
      try {
        await client.patch(
          ConfigMap,
          { metadata: { name: req.name, namespace: req.namespace } },
          mergePatch({ metadata: { annotations: { "sharding.kbts.test/by": identity } } }),
        );
        await new Promise((r) => setTimeout(r, 30));
      } finally {
        say({ ev: "end", replica: identity, key, t: Date.now() });
      }
      // Reconcile again and again, so two owners at once would show as overlapping windows.
      return { requeueAfter: 250 };
    },
  });
const started = mgr.start();
// The metrics port, once the server listens (the test scrapes the kbts_shard_* series).
const port = setInterval(() => {
  const a = mgr.httpAddress("metrics");
  if (!a) return;
  clearInterval(port);
  say({ ev: "metrics", replica: identity, port: a.port });
}, 20);
await started;
