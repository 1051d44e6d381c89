// Dependent resources, workflows and expectations (issue 31, items 1–3) on a real kube-apiserver.
// Every write the controller makes goes through a counting client, so "no write in steady state" is
// counted, not assumed. There is no kube-controller-manager here: garbage collection never runs, so
// for namespaced dependents the owner reference is what is checked; cluster-scoped ones are deleted
// by the workflow itself and that deletion is watched happen.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineKind, type Kind } from "../api/kind.js";
import { ConfigMap, CustomResourceDefinition, Deployment, Event, Namespace } from "../api/kinds.js";
import type { Condition, KubernetesObject } from "../api/meta.js";
import type { Cache } from "../cache/types.js";
import { createClient } from "../client/client.js";
import { isNotFound } from "../client/errors.js";
import { isWriteObservable } from "../client/own-writes.js";
import { mergePatch } from "../client/patch.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { schemalessCRD } from "../internal/testdata/crd.js";
import { eventually } from "../internal/testdata/eventually.js";
import { createLogger } from "../log/logger.js";
import { createManager } from "../manager/manager.js";
import type { Manager } from "../manager/types.js";
import { dependentsController } from "./controller.js";
import { type Dependent, dependent, PRIMARY_ANNOTATION } from "./dependent.js";
import {
  ControllerExpectations,
  controllerOwnerKey,
  expectOwnCreations,
  observeExpectations,
} from "./expectations.js";
import { crdEstablished } from "./ready.js";
import { DependentsReconciler } from "./reconciler.js";
import { WriteCounter } from "./testdata/write-counter.js";
import type { WorkflowResult } from "./workflow.js";

interface App extends KubernetesObject {
  spec: { message: string; replicas?: number; gated?: boolean };
  status?: { conditions?: Condition[] };
}
const App = defineKind<App>({
  group: "dep.kbts.io",
  version: "v1",
  kind: "App",
  plural: "apps",
  namespaced: true,
});

/** An object of a kind known only at run time: no generated type, fields read as plain JSON. */
type Unstructured = KubernetesObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };
function kindAtRunTime(
  apiVersion: string,
  kind: string,
  plural: string,
  namespaced: boolean,
): Kind<Unstructured> {
  const [group, version] = apiVersion.split("/") as [string, string];
  return defineKind<Unstructured>({ group, version, kind, plural, namespaced });
}
const Backend = kindAtRunTime("dep.kbts.io/v1", "Backend", "backends", true);
const Shard = kindAtRunTime("dep.kbts.io/v1", "Shard", "shards", false);
const Widget = kindAtRunTime("dep.kbts.io/v1", "Widget", "widgets", true);

const crd = (kind: string, plural: string, scope: "Namespaced" | "Cluster") =>
  schemalessCRD({ group: "dep.kbts.io", kind, plural, scope });

const logger = createLogger({ level: process.env.KBTS_TEST_LOG_LEVEL ?? "silent" });
let env: Environment;
let direct: Client;
const stops: AbortController[] = [];

beforeAll(async () => {
  env = await startEnvironment({
    crds: [
      crd("App", "apps", "Namespaced"),
      crd("Backend", "backends", "Namespaced"),
      crd("Shard", "shards", "Cluster"),
    ],
  });
  direct = createClient(env.kubeConfig);
}, 120_000);

afterAll(async () => {
  for (const s of stops) s.abort();
  await env?.stop();
});

interface Started {
  writes: WriteCounter;
  reconciled: WorkflowResult[];
  client: Client;
  cache: Cache;
}

/**
 * A manager for one namespace running dependentsController(App) with these dependents, or what
 * `setup` wires instead.
 */
async function start(
  ns: string,
  dependents: Dependent<App>[],
  setup?: (mgr: Manager) => void,
): Promise<Started> {
  await direct.create(Namespace, { metadata: { name: ns } });
  const writes = new WriteCounter();
  const reconciled: WorkflowResult[] = [];
  const mgr = createManager({
    kubeConfig: env.kubeConfig,
    logger,
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
    cache: { namespaces: [ns] },
    newClient: (kc, o) => writes.wrap(createClient(kc, { cache: o.cache, logger: o.logger })),
  });
  if (setup) setup(mgr);
  else {
    dependentsController(mgr, App, {
      name: `app-${ns}`,
      dependents,
      onReconciled: (_, result) => reconciled.push(result),
    });
  }
  const stop = new AbortController();
  stops.push(stop);
  // lint-tests: allow swallowed-error — a background manager, stopped at teardown: the test's waits fail if it dies
  mgr.start(stop.signal).catch(() => {});
  return { writes, reconciled, client: mgr.getClient(), cache: mgr.getCache() };
}

async function getOrUndefined<T extends KubernetesObject>(
  kind: Kind<T>,
  ns: string | undefined,
  name: string,
) {
  try {
    return await direct.get(kind, { namespace: ns, name });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function condition(app: App | undefined, type: string): Condition | undefined {
  return app?.status?.conditions?.find((c) => c.type === type);
}

async function app(ns: string): Promise<App | undefined> {
  return getOrUndefined(App, ns, "demo");
}

/** Changes only an annotation of the App: an update event, hence a reconcile, with nothing to do. */
async function touch(ns: string, i: number): Promise<void> {
  await direct.patch(
    App,
    { namespace: ns, name: "demo" },
    mergePatch({ metadata: { annotations: { touched: `${i}` } } }),
  );
}

const configMap = dependent(ConfigMap, {
  name: "config",
  desired: (a: App) => ({
    metadata: { name: `${a.metadata?.name}-config` },
    data: { message: a.spec.message },
  }),
});

const deployment = dependent(Deployment, {
  desired: (a: App) => ({
    metadata: { name: `${a.metadata?.name}-web`, labels: { app: "web" } },
    spec: {
      replicas: a.spec.replicas ?? 1,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: {
          containers: [{ name: "web", image: "registry.k8s.io/pause:3.10", ports: [{ containerPort: 80 }] }],
        },
      },
    },
  }),
});

/** Cluster-scoped, of a kind known only at run time: an owner reference cannot name its primary. */
const shard = dependent(Shard, {
  name: "shard",
  desired: (a: App) => ({
    metadata: { name: `${a.metadata?.namespace}-shard` },
    spec: { size: a.spec.replicas ?? 1 },
  }),
});

describe("dependent resources", () => {
  it("are created, updated, left alone, restored and deleted with the primary, counting every write", async () => {
    const ns = "dep-lifecycle";
    const { writes, reconciled } = await start(ns, [configMap, deployment, shard]);
    const created = await direct.create(App, {
      metadata: { name: "demo", namespace: ns },
      spec: { message: "hello", replicas: 2 },
    } as App);

    // Created, with a controller owner reference (namespaced) or the primary annotation (cluster-scoped).
    const cm = await eventually("the ConfigMap", () => getOrUndefined(ConfigMap, ns, "demo-config"));
    expect(cm.data).toEqual({ message: "hello" });
    const ownerRef = {
      apiVersion: "dep.kbts.io/v1",
      kind: "App",
      name: "demo",
      uid: created.metadata?.uid,
      controller: true,
      blockOwnerDeletion: true,
    };
    expect(cm.metadata?.ownerReferences).toEqual([ownerRef]);
    const dep = await eventually("the Deployment", () => getOrUndefined(Deployment, ns, "demo-web"));
    expect(dep.spec?.replicas).toBe(2);
    expect(dep.metadata?.ownerReferences).toEqual([ownerRef]);
    const sh = await eventually("the Shard", () => getOrUndefined(Shard, undefined, `${ns}-shard`));
    expect(sh.spec).toEqual({ size: 2 });
    expect(sh.metadata?.ownerReferences).toBeUndefined();
    expect(sh.metadata?.annotations?.[PRIMARY_ANNOTATION]).toBe(`App.dep.kbts.io/${ns}/demo`);
    // Each was applied with the controller's field manager.
    const cmManagers = (await direct.get(ConfigMap, { namespace: ns, name: "demo-config" })).metadata
      ?.managedFields;
    expect(cmManagers?.map((m) => [m.manager, m.operation])).toContainEqual([`app-${ns}`, "Apply"]);
    const ready = await eventually("Ready", async () => {
      const a = await app(ns);
      return condition(a, "Ready")?.status === "True" ? a : undefined;
    });
    expect(condition(ready, "Ready")).toMatchObject({ reason: "DependentsReady", observedGeneration: 1 });
    expect(condition(ready, "Progressing")).toMatchObject({ status: "False", observedGeneration: 1 });
    expect(condition(ready, "Degraded")).toMatchObject({ status: "False", reason: "AsExpected" });
    // The primary got a finalizer, because the cluster-scoped Shard needs an explicit delete.
    expect(ready?.metadata?.finalizers).toEqual([`dependents.kbts.io/app-${ns}`]);

    // Steady state: reconciles keep coming (annotation changes), writes do not, even with the
    // Deployment's server-side defaults (strategy, terminationMessagePath, protocol...) in the cache.
    await eventually(() => expect(reconciled.at(-1)?.ready).toBe(true));
    const before = writes.total;
    const reconcilesBefore = reconciled.length;
    for (let i = 0; i < 5; i++) await touch(ns, i);
    await eventually(() => expect(reconciled.length).toBeGreaterThanOrEqual(reconcilesBefore + 1));
    await eventually(async () => expect((await app(ns))?.metadata?.annotations?.touched).toBe("4"));
    const seen = reconciled.length;
    await touch(ns, 5);
    await eventually(() => expect(reconciled.length).toBeGreaterThan(seen));
    expect(writes.total - before).toBe(0);
    expect(reconciled.slice(reconcilesBefore).every((r) => r.writes === 0)).toBe(true);

    // Updated when the primary changes: one apply of the ConfigMap, none of the others.
    const appliesBefore = { cm: writes.of("apply ConfigMap"), dep: writes.of("apply Deployment") };
    await direct.patch(App, { namespace: ns, name: "demo" }, mergePatch({ spec: { message: "v2" } }));
    await eventually(async () =>
      expect((await direct.get(ConfigMap, { namespace: ns, name: "demo-config" })).data?.message).toBe("v2"),
    );
    await eventually(async () => expect(condition(await app(ns), "Ready")?.observedGeneration).toBe(2));
    expect(writes.of("apply ConfigMap") - appliesBefore.cm).toBe(1);
    expect(writes.of("apply Deployment") - appliesBefore.dep).toBe(0);

    // Restored when someone else changes a field it owns; a field only the other manager set is kept.
    await direct.patch(
      ConfigMap,
      { namespace: ns, name: "demo-config" },
      mergePatch({ data: { message: "hacked", extra: "theirs" } }),
      { fieldManager: "intruder" },
    );
    await eventually(async () =>
      expect((await direct.get(ConfigMap, { namespace: ns, name: "demo-config" })).data).toEqual({
        message: "v2",
        extra: "theirs",
      }),
    );
    // A foreign label on the Deployment is an SSA-owned field of someone else: kept, and no write for it.
    const depApplies = writes.of("apply Deployment");
    await direct.patch(
      Deployment,
      { namespace: ns, name: "demo-web" },
      mergePatch({ metadata: { labels: { team: "x" } } }),
      { fieldManager: "intruder" },
    );
    const afterLabel = reconciled.length;
    await touch(ns, 6);
    await eventually(() => expect(reconciled.length).toBeGreaterThan(afterLabel));
    expect(writes.of("apply Deployment")).toBe(depApplies);
    expect((await direct.get(Deployment, { namespace: ns, name: "demo-web" })).metadata?.labels).toEqual({
      app: "web",
      team: "x",
    });

    // Deleted with the primary: the cluster-scoped Shard by the workflow, then the finalizer goes.
    await direct.delete(App, { namespace: ns, name: "demo" });
    await eventually("the Shard deleted", async () =>
      (await getOrUndefined(Shard, undefined, `${ns}-shard`)) ? undefined : true,
    );
    await eventually("the App gone", async () => ((await app(ns)) ? undefined : true));
  }, 60_000);

  it("a workflow whose second dependent waits for the first to be ready reports Progressing, then Ready", async () => {
    const ns = "dep-workflow";
    const backend = dependent(Backend, {
      name: "backend",
      desired: (a: App) => ({ metadata: { name: `${a.metadata?.name}-backend` }, spec: { tier: "db" } }),
      ready: (b) => b.status?.ready === true,
    });
    const frontend = dependent(ConfigMap, {
      name: "frontend",
      dependsOn: [backend],
      desired: (a: App) => ({
        metadata: { name: `${a.metadata?.name}-frontend` },
        data: { backend: `${a.metadata?.name}-backend` },
      }),
    });
    const side = dependent(ConfigMap, {
      name: "side",
      desired: (a: App) => ({ metadata: { name: `${a.metadata?.name}-side` }, data: { x: "1" } }),
    });
    await start(ns, [backend, frontend, side]);
    await direct.create(App, { metadata: { name: "demo", namespace: ns }, spec: { message: "m" } } as App);

    const progressing = await eventually("Progressing", async () => {
      const a = await app(ns);
      return condition(a, "Progressing")?.status === "True" ? a : undefined;
    });
    expect(condition(progressing, "Progressing")).toMatchObject({
      reason: "BackendNotReady",
      observedGeneration: 1,
    });
    expect(condition(progressing, "Ready")).toMatchObject({ status: "False", reason: "BackendNotReady" });
    expect(condition(progressing, "Ready")?.message).toContain("frontend waits for backend");
    // The independent one did not wait; the dependent one did.
    expect(await getOrUndefined(Backend, ns, "demo-backend")).toBeDefined();
    expect(await getOrUndefined(ConfigMap, ns, "demo-side")).toBeDefined();
    expect(await getOrUndefined(ConfigMap, ns, "demo-frontend")).toBeUndefined();

    // Another controller marks the backend ready: its watch event reconciles the App.
    await direct
      .status()
      .patch(Backend, { namespace: ns, name: "demo-backend" }, mergePatch({ status: { ready: true } }));
    const ready = await eventually("Ready", async () => {
      const a = await app(ns);
      return condition(a, "Ready")?.status === "True" ? a : undefined;
    });
    expect(condition(ready, "Progressing")).toMatchObject({ status: "False", reason: "DependentsReady" });
    expect((await direct.get(ConfigMap, { namespace: ns, name: "demo-frontend" })).data).toEqual({
      backend: "demo-backend",
    });
  }, 60_000);

  it("a failing dependent degrades the primary and holds back only what depends on it", async () => {
    const ns = "dep-errors";
    const broken = dependent(ConfigMap, {
      name: "broken",
      desired: () => ({ metadata: { name: "Not_A_Valid_Name" }, data: {} }),
    });
    const afterBroken = dependent(ConfigMap, {
      name: "after-broken",
      dependsOn: [broken],
      desired: (a: App) => ({ metadata: { name: `${a.metadata?.name}-after` } }),
    });
    const sibling = dependent(ConfigMap, {
      name: "sibling",
      desired: (a: App) => ({ metadata: { name: `${a.metadata?.name}-sibling` } }),
    });
    // Reconcile precondition: skipped while spec.gated is not true.
    const gated = dependent(ConfigMap, {
      name: "gated",
      reconcileWhen: (a: App) => a.spec.gated === true,
      desired: (a: App) => ({ metadata: { name: `${a.metadata?.name}-gated` } }),
    });
    const { reconciled } = await start(ns, [broken, afterBroken, sibling, gated]);
    await direct.create(App, { metadata: { name: "demo", namespace: ns }, spec: { message: "m" } } as App);

    const degraded = await eventually("Degraded", async () => {
      const a = await app(ns);
      return condition(a, "Degraded")?.status === "True" ? a : undefined;
    });
    expect(condition(degraded, "Degraded")?.reason).toBe("BrokenFailed");
    expect(condition(degraded, "Degraded")?.message).toContain("Not_A_Valid_Name");
    expect(condition(degraded, "Ready")).toMatchObject({ status: "False", reason: "BrokenFailed" });
    expect(await getOrUndefined(ConfigMap, ns, "demo-sibling")).toBeDefined();
    expect(await getOrUndefined(ConfigMap, ns, "demo-after")).toBeUndefined();
    expect(await getOrUndefined(ConfigMap, ns, "demo-gated")).toBeUndefined();
    const last = await eventually("a result", () => reconciled.at(-1));
    expect(Object.fromEntries(last.dependents.map((d) => [d.name, d.state]))).toEqual({
      broken: "failed",
      "after-broken": "blocked",
      sibling: "ready",
      gated: "skipped",
    });

    await direct.patch(App, { namespace: ns, name: "demo" }, mergePatch({ spec: { gated: true } }));
    await eventually("the gated ConfigMap", () => getOrUndefined(ConfigMap, ns, "demo-gated"));
  }, 60_000);

  it("an activation condition keeps a dependent of a missing CRD out until the CRD is established", async () => {
    const ns = "dep-activation";
    let client: Client | undefined;
    const widget = dependent(Widget, {
      name: "widget",
      activeWhen: () => crdEstablished(client as Client, "widgets.dep.kbts.io")(),
      desired: (a: App) => ({ metadata: { name: `${a.metadata?.name}-widget` }, spec: { color: "blue" } }),
    });
    const started = await start(ns, [configMap, widget]);
    client = started.client;
    await direct.create(App, { metadata: { name: "demo", namespace: ns }, spec: { message: "m" } } as App);
    const first = await eventually("a result", () => started.reconciled.at(-1));
    expect(first.dependents.find((d) => d.name === "widget")?.state).toBe("inactive");
    await eventually(async () => expect(condition(await app(ns), "Ready")?.status).toBe("True"));

    await direct.create(CustomResourceDefinition, crd("Widget", "widgets", "Namespaced"));
    await eventually("the Widget CRD", async () =>
      (await crdEstablished(direct, "widgets.dep.kbts.io")()) ? true : undefined,
    );
    await touch(ns, 1);
    const w = await eventually("the Widget", () => getOrUndefined(Widget, ns, "demo-widget"));
    expect(w.spec).toEqual({ color: "blue" });
  }, 60_000);

  it("cleanup deletes a dependent only after what depends on it is gone (delete postcondition)", async () => {
    const ns = "dep-cleanup";
    const db = dependent(Shard, {
      name: "db",
      desired: (a: App) => ({ metadata: { name: `${a.metadata?.namespace}-db` }, spec: {} }),
    });
    // Held by a finalizer the test removes: its deletion takes as long as the test wants.
    const api = dependent(Shard, {
      name: "api",
      dependsOn: [db],
      desired: (a: App) => ({
        metadata: { name: `${a.metadata?.namespace}-api`, finalizers: ["test.kbts.io/hold"] },
        spec: {},
      }),
    });
    await start(ns, [db, api]);
    await direct.create(App, { metadata: { name: "demo", namespace: ns }, spec: { message: "m" } } as App);
    await eventually("the api Shard", () => getOrUndefined(Shard, undefined, `${ns}-api`));
    await eventually(async () => expect(condition(await app(ns), "Ready")?.status).toBe("True"));

    await direct.delete(App, { namespace: ns, name: "demo" });
    await eventually(
      "the api Shard deleting",
      async () => (await getOrUndefined(Shard, undefined, `${ns}-api`))?.metadata?.deletionTimestamp,
    );
    // While api is not gone, db stays: cleanup passes keep waiting (requeued every second).
    const since = Date.now();
    await eventually(
      async () => {
        const dbShard = await getOrUndefined(Shard, undefined, `${ns}-db`);
        expect(dbShard).toBeDefined();
        expect(dbShard?.metadata?.deletionTimestamp).toBeUndefined();
        expect(Date.now() - since).toBeGreaterThan(2_500);
      },
      10_000,
      500,
    );
    expect(await app(ns)).toBeDefined();

    await direct.patch(Shard, { name: `${ns}-api` }, mergePatch({ metadata: { finalizers: null } }));
    await eventually("the db Shard deleted", async () =>
      (await getOrUndefined(Shard, undefined, `${ns}-db`)) ? undefined : true,
    );
    await eventually("the App gone", async () => ((await app(ns)) ? undefined : true));
  }, 60_000);

  it("a DependentsReconciler records an event per write and failure, and finalizes before the primary goes", async () => {
    const ns = "dep-reconciler";
    const finalized: string[] = [];
    const strict = dependent(ConfigMap, {
      name: "strict",
      desired: (a: App) => {
        if (a.spec.message === "bad") throw new Error("message must not be bad");
        return { metadata: { name: `${a.metadata?.name}-strict` }, data: { message: a.spec.message } };
      },
    });
    class AppReconciler extends DependentsReconciler<App> {
      readonly kind = App;
      override readonly name = `app-${ns}`;
      readonly dependents = [configMap, strict];
      override finalize(a: App): void {
        finalized.push(a.metadata?.name ?? "");
        this.recorder.event(a, "Normal", "Finalized", "cleaned up");
      }
    }
    const { writes } = await start(ns, [], (mgr) => new AppReconciler(mgr.getClient()).setupWithManager(mgr));
    const events = async () =>
      (await direct.list(Event, { namespace: ns }))
        .filter((e) => e.involvedObject.kind === "App")
        .map((e) => ({ type: e.type, reason: e.reason, message: e.message, count: e.count }));
    await direct.create(App, { metadata: { name: "demo", namespace: ns }, spec: { message: "m" } } as App);

    // finalize is defined, so the primary holds the finalizer although no dependent needs a delete.
    const ready = await eventually("Ready", async () => {
      const a = await app(ns);
      return condition(a, "Ready")?.status === "True" ? a : undefined;
    });
    expect(ready.metadata?.finalizers).toEqual([`dependents.kbts.io/app-${ns}`]);
    await eventually(async () =>
      expect(await events()).toEqual(
        expect.arrayContaining([
          { type: "Normal", reason: "Applied", message: "config applied", count: 1 },
          { type: "Normal", reason: "Applied", message: "strict applied", count: 1 },
        ]),
      ),
    );
    // Steady state: a reconcile with nothing to do writes nothing and records nothing.
    const before = writes.total;
    await touch(ns, 1);
    await eventually(async () => expect((await app(ns))?.metadata?.annotations?.touched).toBe("1"));
    expect(writes.total).toBe(before);

    await direct.patch(App, { namespace: ns, name: "demo" }, mergePatch({ spec: { message: "bad" } }));
    await eventually(async () =>
      expect(await events()).toContainEqual(
        expect.objectContaining({
          type: "Warning",
          reason: "Failed",
          message: "dependent strict: message must not be bad",
        }),
      ),
    );
    // The sibling was still applied, and said so again.
    await eventually(async () =>
      expect(await events()).toContainEqual({
        type: "Normal",
        reason: "Applied",
        message: "config applied",
        count: 2,
      }),
    );
    expect(finalized).toEqual([]);

    // Deleted while `strict` cannot say what it wants: cleanup must not need desired() to let it go.
    await direct.delete(App, { namespace: ns, name: "demo" });
    await eventually("the App gone", async () => ((await app(ns)) ? undefined : true));
    expect(finalized).toEqual(["demo"]);
    await eventually(async () =>
      expect(await events()).toContainEqual({
        type: "Normal",
        reason: "Finalized",
        message: "cleaned up",
        count: 1,
      }),
    );
  }, 60_000);
});

describe("expectations", () => {
  it("are satisfied once the informer has seen the expected creations and deletions", async () => {
    const ns = "dep-expectations";
    const { client, cache } = await start(ns, []);
    const owner = await direct.create(App, {
      metadata: { name: "demo", namespace: ns },
      spec: { message: "m" },
    } as App);
    const expectations = new ControllerExpectations();
    const key = `${ns}/demo`;
    // The cache's ConfigMap informer (the one the client's cached lists read) feeds the expectations.
    const informer = await cache.getInformer(ConfigMap);
    await informer.waitForSync?.();
    observeExpectations(informer, expectations, (cm) => controllerOwnerKey(cm, App));
    const informerOwner = {
      apiVersion: "dep.kbts.io/v1",
      kind: "App",
      name: "demo",
      uid: owner.metadata?.uid ?? "",
      controller: true,
    };

    expectations.expectCreations(key, 3);
    expect(expectations.satisfied(key)).toBe(false);
    for (let i = 0; i < 3; i++) {
      await client.create(ConfigMap, {
        metadata: { generateName: "pod-", namespace: ns, ownerReferences: [informerOwner] },
      });
    }
    await eventually(() => expect(expectations.satisfied(key)).toBe(true));
    // Satisfied means the cache holds them: a cached list counts all three.
    const listed = await client.list(ConfigMap, { namespace: ns });
    expect(listed.filter((c) => controllerOwnerKey(c, App) === key)).toHaveLength(3);

    expectations.expectDeletions(key, 2);
    expect(expectations.satisfied(key)).toBe(false);
    for (const cm of listed.filter((c) => controllerOwnerKey(c, App) === key).slice(0, 2)) {
      await client.delete(ConfigMap, { namespace: ns, name: cm.metadata?.name ?? "" });
    }
    await eventually(() => expect(expectations.satisfied(key)).toBe(true));
    const after = await client.list(ConfigMap, { namespace: ns });
    expect(after.filter((c) => controllerOwnerKey(c, App) === key)).toHaveLength(1);
  }, 60_000);

  it("creations through the client of objects the primary owns raise the expectations before they are sent", async () => {
    const ns = "dep-expect-own";
    const { client, cache } = await start(ns, []);
    const owner = await direct.create(App, {
      metadata: { name: "demo", namespace: ns },
      spec: { message: "m" },
    } as App);
    const key = `${ns}/demo`;
    if (!isWriteObservable(client)) throw new Error("the manager's client cannot be observed");
    // Raised by the client's write observers alone: nothing lowers these.
    const raisedOnly = new ControllerExpectations();
    const stopRaising = expectOwnCreations(client, raisedOnly, key, App, { namespace: ns, name: "demo" });
    // Raised the same way and lowered by the cache's informer.
    const fed = new ControllerExpectations();
    const stopFedRaising = expectOwnCreations(client, fed, key, App, { namespace: ns, name: "demo" });
    const informer = await cache.getInformer(ConfigMap);
    observeExpectations(informer, fed, (cm) => controllerOwnerKey(cm, App));
    const ownerRef = {
      apiVersion: "dep.kbts.io/v1",
      kind: "App",
      name: "demo",
      uid: owner.metadata?.uid ?? "",
      controller: true,
    };
    for (let i = 0; i < 2; i++) {
      await client.create(ConfigMap, {
        metadata: { generateName: "own-", namespace: ns, ownerReferences: [ownerRef] },
      });
    }
    await expect(
      client.create(ConfigMap, {
        metadata: { name: "Not_Valid", namespace: ns, ownerReferences: [ownerRef] },
      }),
    ).rejects.toThrow();
    await client.create(ConfigMap, { metadata: { name: "not-owned", namespace: ns } });
    expect(raisedOnly.getExpectations(key)).toEqual({ add: 2, del: 0 });
    await eventually(() => expect(fed.satisfied(key)).toBe(true));
    expect(fed.getExpectations(key)).toEqual({ add: 0, del: 0 });
    stopRaising();
    stopFedRaising();
    await client.create(ConfigMap, {
      metadata: { generateName: "own-", namespace: ns, ownerReferences: [ownerRef] },
    });
    expect(raisedOnly.getExpectations(key)).toEqual({ add: 2, del: 0 });
  }, 60_000);
});
