import { describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import { ConfigMap } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import type { Client } from "../client/types.js";
import { createFakeClient } from "../fake/client.js";
import { type Dependent, dependent, desiredObject, PRIMARY_ANNOTATION } from "./dependent.js";
import {
  reasonName,
  setWorkflowConditions,
  Workflow,
  type WorkflowResult,
  workflowConditions,
} from "./workflow.js";

interface Primary extends KubernetesObject {
  spec: { n: number };
}
const Primary = defineKind<Primary>({
  group: "x.io",
  version: "v1",
  kind: "Primary",
  plural: "primaries",
  namespaced: true,
});
const Cluster = defineKind({
  group: "x.io",
  version: "v1",
  kind: "Thing",
  plural: "things",
  namespaced: false,
});

async function setup(): Promise<{ client: Client; primary: Primary }> {
  const client = createFakeClient({ kinds: [Primary, Cluster] });
  const primary = await client.create(Primary, {
    apiVersion: "x.io/v1",
    kind: "Primary",
    metadata: { name: "p", namespace: "ns" },
    spec: { n: 1 },
  });
  return { client, primary };
}

const cm = (name: string, options: Partial<Dependent<Primary, ConfigMap>> = {}) =>
  dependent(ConfigMap, {
    name,
    desired: (p: Primary) => ({
      metadata: { name: `${p.metadata?.name}-${name}` },
      data: { n: `${p.spec.n}` },
    }),
    ...options,
  });

const states = (r: WorkflowResult) => Object.fromEntries(r.dependents.map((d) => [d.name, d.state]));

describe("desiredObject", () => {
  it("fills type meta and namespace, drops status, and links the primary by owner reference or annotation", async () => {
    const { primary } = await setup();
    const d = desiredObject(cm("a"), Primary, primary);
    expect(d).toMatchObject({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "p-a", namespace: "ns" },
    });
    expect(d.metadata?.ownerReferences).toEqual([
      {
        apiVersion: "x.io/v1",
        kind: "Primary",
        name: "p",
        uid: primary.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    const thing = dependent(Cluster, {
      desired: () => ({ metadata: { name: "t" }, status: { x: 1 } }) as KubernetesObject,
    });
    const t = desiredObject(thing, Primary, primary) as KubernetesObject & { status?: unknown };
    expect(t.metadata?.ownerReferences).toBeUndefined();
    expect(t.metadata?.annotations?.[PRIMARY_ANNOTATION]).toBe("Primary.x.io/ns/p");
    expect(t.status).toBeUndefined();
    const other = cm("o", { desired: () => ({ metadata: { name: "o", namespace: "elsewhere" } }) });
    expect(desiredObject(other, Primary, primary).metadata?.annotations?.[PRIMARY_ANNOTATION]).toBe(
      "Primary.x.io/ns/p",
    );
  });

  it("says what is wrong with a desired object", async () => {
    const { primary } = await setup();
    // In the primary's namespace, a dependent without a name takes the primary's; elsewhere it must name one.
    expect(
      desiredObject(cm("a", { desired: () => ({ metadata: {} }) }), Primary, primary).metadata?.name,
    ).toBe(primary.metadata?.name);
    const elsewhere = cm("b", { desired: () => ({ metadata: { namespace: "elsewhere" } }) });
    expect(() => desiredObject(elsewhere, Primary, primary)).toThrow(
      "dependent b: desired() returned a ConfigMap without metadata.name (only a dependent in its primary's namespace",
    );
    const unnamedOnCluster = dependent(Cluster, { desired: () => ({}) });
    expect(() => desiredObject(unnamedOnCluster, Primary, primary)).toThrow("without metadata.name");
    const nsOnCluster = dependent(Cluster, { desired: () => ({ metadata: { name: "t", namespace: "ns" } }) });
    expect(() => desiredObject(nsOnCluster, Primary, primary)).toThrow("Thing is cluster-scoped");
    expect(() => dependent(ConfigMap, { name: "bad name", desired: () => ({}) })).toThrow(
      'dependent name "bad name"',
    );
  });
});

describe("Workflow", () => {
  it("refuses duplicate names, dependencies outside the workflow and cycles", async () => {
    const { client } = await setup();
    const opts = { client, fieldManager: "m", primaryKind: Primary };
    expect(() => new Workflow([cm("a"), cm("a")], opts)).toThrow('two dependents are named "a"');
    const outside = cm("x");
    expect(() => new Workflow([cm("b", { dependsOn: [outside] })], opts)).toThrow(
      "depends on x, which is not in the workflow",
    );
    const a = cm("a");
    const b = cm("b", { dependsOn: [a] });
    (a as { dependsOn?: Dependent<Primary>[] }).dependsOn = [b];
    expect(() => new Workflow([a, b], opts)).toThrow("dependents form a cycle: a → b → a");
  });

  it("applies once, then writes nothing while the cache matches; applies again when the primary changes", async () => {
    const { client, primary } = await setup();
    const wf = new Workflow([cm("a"), cm("b")], { client, fieldManager: "m", primaryKind: Primary });
    expect((await wf.reconcile(primary)).writes).toBe(2);
    expect((await wf.reconcile(primary)).writes).toBe(0);
    const changed = { ...primary, spec: { n: 2 } };
    const r = await wf.reconcile(changed);
    expect(r.writes).toBe(2);
    expect((await client.get(ConfigMap, { namespace: "ns", name: "p-a" })).data).toEqual({ n: "2" });
  });

  it("runs independent dependents in parallel and holds back only what depends on a failure or an unready one", async () => {
    const { client, primary } = await setup();
    const started: string[] = [];
    let release: () => void = () => {};
    const slowGate = new Promise<void>((r) => {
      release = r;
    });
    const slow = cm("slow", {
      reconcileWhen: async () => {
        started.push("slow");
        await slowGate;
        return true;
      },
    });
    let fastStarted: () => void = () => {};
    const fastSeen = new Promise<void>((r) => {
      fastStarted = r;
    });
    const fast = cm("fast", {
      reconcileWhen: () => {
        started.push("fast");
        fastStarted();
        return true;
      },
    });
    const failing = cm("failing", {
      reconcileWhen: () => {
        throw new Error("boom");
      },
    });
    const afterFailing = cm("after-failing", { dependsOn: [failing] });
    const unready = cm("unready", { ready: () => false });
    const afterUnready = cm("after-unready", { dependsOn: [unready] });
    const skipped = cm("skipped", { reconcileWhen: () => false });
    const afterSkipped = cm("after-skipped", { dependsOn: [skipped] });
    const inactive = cm("inactive", { activeWhen: () => false });
    const wf = new Workflow(
      [slow, fast, failing, afterFailing, unready, afterUnready, skipped, afterSkipped, inactive],
      {
        client,
        fieldManager: "m",
        primaryKind: Primary,
      },
    );
    const run = wf.reconcile(primary);
    // fast starts while slow is still held: they run side by side.
    await fastSeen;
    expect(started).toEqual(["slow", "fast"]);
    release();
    const r = await run;
    expect(states(r)).toEqual({
      slow: "ready",
      fast: "ready",
      failing: "failed",
      "after-failing": "blocked",
      unready: "notReady",
      "after-unready": "waiting",
      skipped: "skipped",
      "after-skipped": "skipped",
      inactive: "inactive",
    });
    expect(r.ready).toBe(false);
    expect(r.errors.map((e) => e.message)).toEqual(["dependent failing: boom"]);
    await expect(client.get(ConfigMap, { namespace: "ns", name: "p-after-unready" })).rejects.toThrow();
    await expect(client.get(ConfigMap, { namespace: "ns", name: "p-skipped" })).rejects.toThrow();
  });

  it("cleanup deletes the dependents an owner reference cannot name, dependents first, after their delete postcondition", async () => {
    const { client, primary } = await setup();
    let apiGone = false;
    const db = dependent(Cluster, { name: "db", desired: () => ({ metadata: { name: "db" } }) });
    const api = dependent(Cluster, {
      name: "api",
      dependsOn: [db],
      desired: () => ({ metadata: { name: "api" } }),
      deletedWhen: () => apiGone,
    });
    const owned = cm("owned");
    const wf = new Workflow([db, api, owned], { client, fieldManager: "m", primaryKind: Primary });
    expect(wf.needsCleanup(primary)).toBe(true);
    expect(
      new Workflow([owned], { client, fieldManager: "m", primaryKind: Primary }).needsCleanup(primary),
    ).toBe(false);
    await wf.reconcile(primary);
    const first = await wf.cleanup(primary);
    expect(first).toMatchObject({ done: false, pending: ["db", "api"] });
    await expect(client.get(Cluster, { name: "api" })).rejects.toThrow();
    expect(await client.get(Cluster, { name: "db" })).toBeDefined();
    apiGone = true;
    expect((await wf.cleanup(primary)).pending).toEqual(["db"]);
    await expect(client.get(Cluster, { name: "db" })).rejects.toThrow();
    expect(await wf.cleanup(primary)).toMatchObject({ done: true, pending: [] });
    // The garbage collector's: left in place.
    expect(await client.get(ConfigMap, { namespace: "ns", name: "p-owned" })).toBeDefined();
  });
});

describe("workflow conditions", () => {
  const result = (dependents: WorkflowResult["dependents"]): WorkflowResult => ({
    dependents,
    ready: dependents.every((d) => d.state === "ready"),
    errors: [],
    writes: 0,
  });

  it("Ready, Progressing and Degraded name the dependent that decides them, with observedGeneration", () => {
    const waiting = result([
      { name: "backend", state: "notReady", wrote: false },
      { name: "web-config", state: "waiting", wrote: false, dependency: "backend" },
    ]);
    expect(workflowConditions(waiting, 3)).toEqual([
      {
        type: "Ready",
        status: "False",
        reason: "BackendNotReady",
        message: "backend is not ready; web-config waits for backend",
        observedGeneration: 3,
      },
      {
        type: "Progressing",
        status: "True",
        reason: "BackendNotReady",
        message: "backend is not ready; web-config waits for backend",
        observedGeneration: 3,
      },
      {
        type: "Degraded",
        status: "False",
        reason: "AsExpected",
        message: "no dependent failed",
        observedGeneration: 3,
      },
    ]);
    const failed = result([
      { name: "config-map", state: "failed", wrote: false, error: new Error("denied") },
    ]);
    const [ready, progressing, degraded] = workflowConditions(failed);
    expect(ready).toMatchObject({
      status: "False",
      reason: "ConfigMapFailed",
      message: "config-map failed: denied",
    });
    expect(progressing).toMatchObject({ status: "False", reason: "ConfigMapFailed" });
    expect(degraded).toMatchObject({ status: "True", reason: "ConfigMapFailed" });
    expect(reasonName("my-web-config")).toBe("MyWebConfig");
  });

  it("setWorkflowConditions reports a change only when one happened, keeping other conditions", () => {
    const conditions = [
      {
        type: "Mine",
        status: "True" as const,
        reason: "X",
        message: "",
        lastTransitionTime: "2026-01-01T00:00:00Z",
      },
    ];
    const ok = result([{ name: "a", state: "ready", wrote: true }]);
    expect(setWorkflowConditions(conditions, ok, 1)).toBe(true);
    expect(setWorkflowConditions(conditions, ok, 1)).toBe(false);
    expect(conditions.map((c) => `${c.type}=${c.status}`)).toEqual([
      "Mine=True",
      "Ready=True",
      "Progressing=False",
      "Degraded=False",
    ]);
    expect(setWorkflowConditions(conditions, ok, 2)).toBe(true);
  });
});
