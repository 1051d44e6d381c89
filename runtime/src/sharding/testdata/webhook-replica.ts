/**
 * One sharded replica for sharding.webhook.int.test.ts, run as a child process (so a test can SIGKILL
 * it): a manager in ring "hooks" sharded by namespace with shardSelector, caching only its namespaces'
 * ConfigMaps, serving a validating ConfigMap webhook that forwards to the shard owner. The validator
 * allows, with warnings naming this replica and whether the namespace's "marker" ConfigMap is in its
 * cache. Prints its webhook and metrics ports as JSON lines.
 * argv: kubeconfig path, identity, mechanism (shardSelector), webhook cert dir.
 */
import { ConfigMap } from "../../api/kinds.js";
import { webhookManagedBy } from "../../builder/webhook.js";
import { loadKubeConfig } from "../../client/config.js";
import { isNotFound } from "../../client/errors.js";
import { createLogger } from "../../log/logger.js";
import { createManager } from "../../manager/manager.js";
import type { AdmissionRequest } from "../../webhook/admission.js";
import type { HttpsWebhookServer } from "../../webhook/server.js";

const [kubeconfig, identity, , certDir] = process.argv.slice(2) as [string, string, string, string];
const say = (fields: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(fields)}\n`);

const mgr = createManager({
  kubeConfig: loadKubeConfig({ path: kubeconfig }),
  logger: createLogger({ level: process.env.KBTS_TEST_LOG_LEVEL ?? "silent" }),
  healthProbeBindAddress: "0",
  metricsBindAddress: "127.0.0.1:0",
  webhookServer: { host: "127.0.0.1", port: 0, certDir },
  sharding: {
    ring: "hooks",
    identity,
    mechanism: "shardSelector",
    key: "namespace",
    namespace: "shards",
    leaseDurationMs: 3_000,
    renewDeadlineMs: 2_000,
    retryPeriodMs: 500,
  },
});
mgr.getShard?.()?.shardKind(ConfigMap);
const cache = mgr.getCache();
// Started with the cache, so the replica lists its namespaces' ConfigMaps before any admission.
await cache.getInformer(ConfigMap);

async function answer(req: AdmissionRequest): Promise<string[]> {
  let cached = true;
  try {
    await cache.get(ConfigMap, { namespace: req.namespace, name: "marker" });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    cached = false;
  }
  return [`by=${identity}`, `cached=${cached}`];
}

webhookManagedBy(mgr, ConfigMap)
  .withValidator({
    validateCreate: async (_obj, req) => answer(req),
    validateUpdate: async (_old, _obj, req) => answer(req),
    validateDelete: async (_obj, req) => answer(req),
  })
  .forwardToShardOwner()
  .complete();

const started = mgr.start();
const server = mgr.getWebhookServer() as HttpsWebhookServer;
const ports = setInterval(() => {
  const webhook = server.address();
  const metrics = mgr.httpAddress("metrics");
  if (!webhook || !metrics) return;
  clearInterval(ports);
  say({ ev: "webhook", replica: identity, port: webhook.port });
  say({ ev: "metrics", replica: identity, port: metrics.port });
}, 20);
await started;
