// Issue 17.4: a warm standby (enableWarmup) reconciles sooner after its leader is killed than a cold
// one, because its informers listed before it led. Both times are printed; the 10,000-pod figures
// come from bench/failover.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../runtime/src/client/client.js";
import type { Client } from "../runtime/src/client/types.js";
import { type Environment, startEnvironment } from "../runtime/src/envtest/index.js";
import { createPods, describeTiming, type FailoverTiming, measureFailover } from "./support/failover.js";

const PODS = 2_000;
let env: Environment;
let client: Client;

beforeAll(async () => {
  env = await startEnvironment();
  client = createClient(env.kubeConfig);
  await createPods(client, ["failover-a", "failover-b", "failover-c", "failover-d"], PODS);
}, 300_000);

afterAll(async () => {
  await env?.stop();
});

describe("warm standby failover", () => {
  it(`a warm standby reconciles sooner after the leader is SIGKILLed than a cold one (${PODS} pods)`, async () => {
    const run = (warm: boolean) =>
      measureFailover({ client, kubeconfigPath: env.kubeconfigPath, leaseNamespace: "default", warm });
    const cold: FailoverTiming = await run(false);
    const warm: FailoverTiming = await run(true);
    console.log(`failover with ${PODS} pods\n  ${describeTiming(cold)}\n  ${describeTiming(warm)}`);

    // The cold standby lists its pods only once it leads; the warm one had listed before, and does not again.
    expect(cold.listsWhenLeading).toBe(0);
    expect(cold.listsAtFirstReconcile).toBe(1);
    expect(warm.listsWhenLeading).toBe(1);
    expect(warm.listsAtFirstReconcile).toBe(1);
    for (const t of [cold, warm]) expect(t.reconciledBeforeLeading).toBe(false);
    // The relist is what the warm standby saves: it starts its workers on the synced cache.
    expect(warm.leadingToFirstReconcileMs).toBeLessThan(cold.leadingToFirstReconcileMs);
    expect(warm.killToFirstReconcileMs).toBeLessThan(cold.killToFirstReconcileMs);
  });
});
