// Conditional controllers (issue 30, item 3) on a real kube-apiserver: a controller for a kind whose
// CRD is not installed waits (and /readyz says so, still ready), starts when the CRD is applied, stops
// and drops its informer when the CRD is deleted (no reflector left retrying a list of a kind that is
// gone), and starts again when the CRD comes back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import { CustomResourceDefinition, Namespace } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import { controllerManagedBy } from "../builder/builder.js";
import type { InformerCache } from "../cache/cache.js";
import { createClient } from "../client/client.js";
import { isNotFound } from "../client/errors.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { schemalessCRD } from "../internal/testdata/crd.js";
import { eventually } from "../internal/testdata/eventually.js";
import { createLogger } from "../log/logger.js";
import { createManager } from "../manager/manager.js";
import type { Manager } from "../manager/types.js";

const Widget = defineKind<KubernetesObject & { spec?: Record<string, unknown> }>({
  group: "cond.kbts.io",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});
const widgetCRD = schemalessCRD({
  group: "cond.kbts.io",
  kind: "Widget",
  plural: "widgets",
  scope: "Namespaced",
});

const logger = createLogger({ level: process.env.KBTS_TEST_LOG_LEVEL ?? "silent" });
let env: Environment;
let direct: Client;
let mgr: Manager;
const stop = new AbortController();
const reconciled: string[] = [];

beforeAll(async () => {
  env = await startEnvironment();
  direct = createClient(env.kubeConfig);
  await direct.create(Namespace, { metadata: { name: "cond" } });
  mgr = createManager({
    kubeConfig: env.kubeConfig,
    logger,
    metricsBindAddress: "0",
    healthProbeBindAddress: "127.0.0.1:0",
  });
  controllerManagedBy(mgr)
    .for(Widget)
    .whenServed({ pollIntervalMs: 200 })
    .complete({
      async reconcile(request) {
        reconciled.push(request.name);
        return undefined;
      },
    });
  // lint-tests: allow swallowed-error — a background manager, stopped at teardown: the test's waits fail if it dies
  mgr.start(stop.signal).catch(() => {});
}, 120_000);

afterAll(async () => {
  stop.abort();
  await env?.stop();
});

const readyz = async () => {
  const port = await eventually("the probe server", () => mgr.httpAddress("healthProbe")?.port);
  const res = await fetch(`http://127.0.0.1:${port}/readyz?verbose`);
  return { status: res.status, body: await res.text() };
};
const informer = () => (mgr.getCache() as InformerCache).peekInformer(Widget);
const WAITING =
  "[+]widget-kinds-served ok (waiting for Widget.cond.kbts.io to be served (CRD not installed))";

async function applyCRD(): Promise<void> {
  // A copy each time: create writes the answer (resourceVersion, uid) back into what it was given.
  await direct.create(CustomResourceDefinition, structuredClone(widgetCRD));
  await eventually("the Widget CRD served", async () => {
    const crd = await direct.get(CustomResourceDefinition, { name: "widgets.cond.kbts.io" });
    return crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True") || undefined;
  });
}

async function deleteCRD(): Promise<void> {
  await direct.delete(CustomResourceDefinition, { name: "widgets.cond.kbts.io" });
  await eventually("the Widget CRD gone", () =>
    direct.get(CustomResourceDefinition, { name: "widgets.cond.kbts.io" }).then(
      () => undefined,
      (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
    ),
  );
}

describe("a controller started when its kind is served", () => {
  it("waits while the CRD is missing, ready, with no informer for the kind", async () => {
    await eventually(async () => expect((await readyz()).body).toContain(WAITING));
    expect((await readyz()).status).toBe(200);
    expect(informer()).toBeUndefined();
  });

  it("starts when the CRD is applied, and reconciles its objects", async () => {
    await applyCRD();
    await direct.create(Widget, { metadata: { name: "first", namespace: "cond" }, spec: {} });
    await eventually(() => expect(reconciled).toContain("first"), 20_000);
    const now = await readyz();
    expect(now.body).toContain("[+]widget-kinds-served ok\n");
    expect(informer()?.hasSynced()).toBe(true);
  });

  it("stops and drops its informer when the CRD is deleted, then starts again when it is back", async () => {
    await deleteCRD();
    await eventually(() => expect(informer()).toBeUndefined(), 20_000);
    await eventually(async () => expect((await readyz()).body).toContain(WAITING));
    const before = reconciled.length;

    await applyCRD();
    await direct.create(Widget, { metadata: { name: "second", namespace: "cond" }, spec: {} });
    await eventually(() => expect(reconciled).toContain("second"), 20_000);
    // The first widget went with its CRD: only the second is reconciled after the restart.
    expect(reconciled.slice(before)).not.toContain("first");
    expect(informer()?.hasSynced()).toBe(true);
  });
});
