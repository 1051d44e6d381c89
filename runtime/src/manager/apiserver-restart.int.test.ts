// Issue 4: kube-apiserver killed and restarted mid-run. The controller keeps running, changes made
// while it was down (through a second API server on the same etcd) are reconciled, and the manager
// never exits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Namespace } from "../api/kinds.js";
import { controllerManagedBy } from "../builder/builder.js";
import { createClient } from "../client/client.js";
import { isNotFound } from "../client/errors.js";
import { type APIServerProcess, killAPIServer, startSecondAPIServer } from "../envtest/apiserver-restart.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { freePort } from "../envtest/ports.js";
import { eventually } from "../internal/testdata/eventually.js";
import { createLogger } from "../log/logger.js";
import { newPredicateFuncs } from "../predicate/predicate.js";
import { createManager } from "./manager.js";

let env: Environment;
let second: APIServerProcess | undefined;
let restarted: APIServerProcess | undefined;
const stop = new AbortController();

/** Polls `cond` (every 50 ms) until it holds. */
const until = (what: string, cond: () => boolean | Promise<boolean>, ms = 60_000) =>
  eventually(what, async () => (await cond()) || undefined, ms, 50);

beforeAll(async () => {
  env = await startEnvironment();
});

afterAll(async () => {
  stop.abort();
  await restarted?.stop();
  await second?.stop();
  await env?.stop();
});

describe("controller across an API server restart", () => {
  it("reconciles every change made while the API server was down and never exits", async () => {
    const ns = "restart";
    const direct = createClient(env.kubeConfig);
    await direct.create(Namespace, { metadata: { name: ns } });
    for (let i = 0; i < 5; i++) {
      await direct.create(ConfigMap, { metadata: { name: `cm-${i}`, namespace: ns }, data: { v: "0" } });
    }

    const mgr = createManager({
      kubeConfig: env.kubeConfig,
      logger: createLogger({ level: process.env.KBTS_TEST_LOG_LEVEL ?? "silent" }),
      metricsBindAddress: "0",
      healthProbeBindAddress: "0",
    });
    const state = new Map<string, string>(); // name → last reconciled value ("gone" when deleted)
    controllerManagedBy(mgr)
      .named("restart")
      .for(ConfigMap, { predicates: [newPredicateFuncs((o) => o.metadata?.namespace === ns)] })
      .complete({
        async reconcile(req) {
          try {
            const cm = await mgr.getClient().get(ConfigMap, { namespace: ns, name: req.name });
            state.set(req.name, cm.data?.v ?? "");
          } catch (err) {
            if (!isNotFound(err)) throw err;
            state.set(req.name, "gone");
          }
          return undefined;
        },
      });
    let exited: unknown = "running";
    mgr.start(stop.signal).then(
      () => {
        exited = "resolved";
      },
      (err) => {
        exited = err;
      },
    );
    await until("the initial reconciles", () => state.size === 5);

    second = await startSecondAPIServer(env, await freePort("127.0.0.1"));
    const other = createClient(second.kubeConfig);
    const killed = await killAPIServer(env);
    await other.create(ConfigMap, { metadata: { name: "cm-new", namespace: ns }, data: { v: "1" } });
    const cm1 = await other.get(ConfigMap, { namespace: ns, name: "cm-1" });
    await other.update(ConfigMap, { ...cm1, data: { v: "changed" } });
    await other.delete(ConfigMap, { namespace: ns, name: "cm-4" });
    await new Promise((r) => setTimeout(r, 3_000)); // the watch fails against the dead server meanwhile
    restarted = await killed.start();

    await until(
      "the changes made while down to be reconciled",
      () => state.get("cm-new") === "1" && state.get("cm-1") === "changed" && state.get("cm-4") === "gone",
      90_000,
    );
    // And it keeps watching after the restart.
    await direct.create(ConfigMap, { metadata: { name: "cm-after", namespace: ns }, data: { v: "2" } });
    await until("a change after the restart", () => state.get("cm-after") === "2", 60_000);
    expect(exited).toBe("running");
  });
});
