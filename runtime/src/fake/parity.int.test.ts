import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { createClient } from "../client/client.js";
import { isNotFound, MissingSubresourceError } from "../client/errors.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { createFakeClient } from "./index.js";

// Writes fill the object passed in with the answer (as controller-runtime does), so each client gets its own copy.
// The fake's validation is only worth having if it says what the API server says: the same
// objects go to both, and the messages must match.

interface GPUBudget extends KubernetesObject {
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}
const GPUBudget = defineKind<GPUBudget>({
  group: "capacity.lab.example.com",
  version: "v1",
  kind: "GPUBudget",
  plural: "gpubudgets",
  namespaced: true,
});
const crdDir = fileURLToPath(new URL("./testdata", import.meta.url));

function budget(name: string, spec: Record<string, unknown>): GPUBudget {
  return {
    apiVersion: "capacity.lab.example.com/v1",
    kind: "GPUBudget",
    metadata: { name, namespace: "default" },
    spec,
  };
}

function withLabels(obj: GPUBudget, labels: Record<string, string>): GPUBudget {
  return { ...obj, metadata: { ...obj.metadata, labels } };
}

async function messageOf(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => "<accepted>",
    (e: Error) => e.message,
  );
}

/** The API server lists several field errors in map-iteration order; compare them as a set. */
function normalized(message: string): string {
  const m = /^(.* is invalid: )\[(.*)\]$/.exec(message);
  if (!m) return message;
  const parts = (m[2] ?? "").split(/, (?=(?:spec|status|metadata|<nil>)[.:[])/).sort();
  return `${m[1]}[${parts.join(", ")}]`;
}

const createCases: [string, GPUBudget][] = [
  ["minimum", budget("min", { maxGPUs: -1 })],
  ["enum", budget("enum", { maxGPUs: 1, tier: "platinum" })],
  ["CEL rule with message", budget("cel", { maxGPUs: 2, minGPUs: 3 })],
  ["CEL messageExpression", budget("celexpr", { maxGPUs: 2, team: "ml" })],
  ["type", budget("type", { maxGPUs: "two" })],
  ["required", budget("required", { tier: "gold" })],
  ["maxLength", budget("maxlen", { maxGPUs: 1, owner: "abcdefghij" })],
  ["pattern", budget("pattern", { maxGPUs: 1, owner: "Ab" })],
  ["set duplicates", budget("set", { maxGPUs: 1, zones: ["a", "a"] })],
  ["maxItems", budget("maxitems", { maxGPUs: 1, zones: ["a", "b", "c", "d"] })],
  ["int-or-string", budget("intorstring", { maxGPUs: 1, port: 1.5 })],
  ["int32 format", budget("int32", { maxGPUs: 3_000_000_000 })],
  ["metadata.name", budget("Bad_Name", { maxGPUs: 1 })],
  ["several errors", budget("several", { maxGPUs: -1, tier: "x" })],
  ["root rule on metadata.name", budget("a-budget-name-longer-than-twenty", { maxGPUs: 1 })],
  ["label value too long", withLabels(budget("lv", { maxGPUs: 1 }), { team: "x".repeat(64) })],
  ["label value characters", withLabels(budget("lc", { maxGPUs: 1 }), { team: "a b" })],
  [
    "label key",
    withLabels(budget("lk", { maxGPUs: 1 }), { "Example.com/x": "1", "a/b/c": "2", "-bad": "3" }),
  ],
  ["valid", budget("valid", { maxGPUs: 1, port: "http", ratio: null, extra: { a: 1 } })],
];

describe("fake client validation matches the API server", () => {
  let env: Environment;
  let real: Client;

  beforeAll(async () => {
    env = await startEnvironment({ crdDirectoryPaths: [crdDir] });
    real = createClient(env.kubeConfig);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it.each(createCases)("on create: %s", async (name, obj) => {
    const fake = createFakeClient({ crdDirectoryPaths: [crdDir] });
    const [fromServer, fromFake] = [
      await messageOf(real.create(GPUBudget, structuredClone(obj))),
      await messageOf(fake.create(GPUBudget, structuredClone(obj))),
    ];
    expect(normalized(fromFake)).toBe(normalized(fromServer));
    // Every case but "valid" breaks a rule of the test CRD: were the rule lost, both sides would
    // accept and still agree.
    expect(fromServer === "<accepted>", fromServer).toBe(name === "valid");
  });

  it("on create: defaults and pruning give the same stored object", async () => {
    const fake = createFakeClient({ crdDirectoryPaths: [crdDir] });
    const obj = budget("pruned", {
      maxGPUs: 1,
      unknown: "x",
      labels: { a: "b" },
      extra: { keep: { me: true } },
    });
    const a = await real.create(GPUBudget, structuredClone(obj));
    const b = await fake.create(GPUBudget, structuredClone(obj));
    expect(b.spec).toEqual(a.spec);
    expect(b.metadata?.generation).toBe(a.metadata?.generation);
  });

  it("on update: transition rule, generation bump and status subresource", async () => {
    const fake = createFakeClient({ crdDirectoryPaths: [crdDir] });
    for (const c of [real, fake]) await c.create(GPUBudget, budget("upd", { maxGPUs: 1, tier: "gold" }));
    const results = [];
    for (const c of [real, fake]) {
      const cur = await c.get(GPUBudget, { namespace: "default", name: "upd" });
      const tier = await messageOf(c.update(GPUBudget, { ...cur, spec: { ...cur.spec, tier: "silver" } }));
      const bumped = await c.update(GPUBudget, {
        ...cur,
        spec: { ...cur.spec, maxGPUs: 2 },
        status: { allocated: 5 },
      });
      const statusBad = await messageOf(
        c.status().update(GPUBudget, { ...bumped, status: { allocated: -1 } }),
      );
      const statusOk = await c
        .status()
        .update(GPUBudget, { ...bumped, spec: { maxGPUs: 99 }, status: { allocated: 1 } });
      results.push({
        tier,
        generation: bumped.metadata?.generation,
        statusAfterUpdate: bumped.status,
        statusBad,
        status: statusOk.status,
        spec: statusOk.spec,
        generationAfterStatus: statusOk.metadata?.generation,
      });
    }
    expect(results[1]).toEqual(results[0]);
  });

  it("API errors: NotFound, AlreadyExists, Conflict, missing resourceVersion, finalizers on a deleting object", async () => {
    const fake = createFakeClient({ crdDirectoryPaths: [crdDir] });
    const results = [];
    for (const c of [real, fake]) {
      const r: Record<string, unknown> = {};
      r.notFound = await messageOf(c.get(GPUBudget, { namespace: "default", name: "nope" }));
      const created = await c.create(GPUBudget, {
        ...budget("api", { maxGPUs: 1 }),
        metadata: { name: "api", namespace: "default", finalizers: ["lab.example.com/cleanup"] },
      });
      r.alreadyExists = await messageOf(c.create(GPUBudget, budget("api", { maxGPUs: 1 })));
      const next = await c.update(GPUBudget, { ...created, spec: { ...created.spec, maxGPUs: 2 } });
      r.conflict = await messageOf(
        c.update(GPUBudget, { ...created, spec: { ...created.spec, maxGPUs: 3 } }),
      );
      const { resourceVersion: _rv, ...metaWithoutRV } = next.metadata ?? {};
      r.noRV = await messageOf(c.update(GPUBudget, { ...next, metadata: metaWithoutRV }));
      await c.delete(GPUBudget, next);
      const deleting = await c.get(GPUBudget, { namespace: "default", name: "api" });
      r.deleting = deleting.metadata?.deletionTimestamp !== undefined;
      r.newFinalizer = await messageOf(
        c.update(GPUBudget, {
          ...deleting,
          metadata: {
            ...deleting.metadata,
            finalizers: ["lab.example.com/cleanup", "lab.example.com/other"],
          },
        }),
      );
      await c.update(GPUBudget, { ...deleting, metadata: { ...deleting.metadata, finalizers: [] } });
      r.goneAfterLastFinalizer = await messageOf(c.get(GPUBudget, { namespace: "default", name: "api" }));
      results.push(r);
    }
    expect(results[1]).toEqual(results[0]);
  });

  it("a CRD without CEL rules reports schema errors alone", async () => {
    const GPUQuota = defineKind({
      group: "capacity.lab.example.com",
      version: "v1",
      kind: "GPUQuota",
      plural: "gpuquotas",
      namespaced: false,
    });
    const fake = createFakeClient({ crdDirectoryPaths: [crdDir] });
    const obj = {
      apiVersion: "capacity.lab.example.com/v1",
      kind: "GPUQuota",
      metadata: { name: "q" },
      spec: { level: "mid" },
    };
    const [fromServer, fromFake] = [
      await messageOf(real.create(GPUQuota, structuredClone(obj))),
      await messageOf(fake.create(GPUQuota, structuredClone(obj))),
    ];
    expect(fromServer).not.toContain("not checked");
    expect(fromFake).toBe(fromServer);
  });

  it("defaults nested objects, list items and map values the same way", async () => {
    const GPUQuota = defineKind<GPUBudget>({
      group: "capacity.lab.example.com",
      version: "v1",
      kind: "GPUQuota",
      plural: "gpuquotas",
      namespaced: false,
    });
    const fake = createFakeClient({ crdDirectoryPaths: [crdDir] });
    const obj = {
      apiVersion: "capacity.lab.example.com/v1",
      kind: "GPUQuota",
      metadata: { name: "defaults" },
      spec: { slots: [{ name: "a" }, { size: 2 }], selectors: { x: {} }, extra: 1 },
    };
    const [a, b] = [await real.create(GPUQuota, structuredClone(obj)), await fake.create(GPUQuota, obj)];
    expect(b.spec).toEqual(a.spec);
    const nulled = { ...obj, metadata: { name: "nulled" }, spec: { limits: { note: null, gpus: null } } };
    const [c, d] = [
      await messageOf(real.create(GPUQuota, structuredClone(nulled)).then((o) => JSON.stringify(o.spec))),
      await messageOf(fake.create(GPUQuota, structuredClone(nulled)).then((o) => JSON.stringify(o.spec))),
    ];
    expect(d).toBe(c);
  });

  // The tutorial's reconciler, translated line by line from Go: Update adds the finalizer, then
  // Status().Update on the same object. controller-runtime writes each answer back into the object,
  // so the second write carries the new resourceVersion instead of conflicting.
  it("Go translation: Update adds a finalizer, then Status().Update on the same object", async () => {
    const fake = createFakeClient({ crdDirectoryPaths: [crdDir] });
    const results = [];
    for (const [i, c] of [real, fake].entries()) {
      await c.create(GPUBudget, budget(`go-${i}`, { maxGPUs: 1 }));
      // var ct v1.GPUBudget; r.Get(ctx, req.NamespacedName, &ct)
      const ct = await c.get(GPUBudget, { namespace: "default", name: `go-${i}` });
      const before = ct.metadata?.resourceVersion;
      // ct.Finalizers = append(ct.Finalizers, finalizerName); r.Update(ctx, &ct)
      ct.metadata = {
        ...ct.metadata,
        finalizers: [...(ct.metadata?.finalizers ?? []), "lab.example.com/cleanup"],
      };
      const returned = await c.update(GPUBudget, ct);
      const afterUpdate = ct.metadata?.resourceVersion;
      const returnedRV = returned.metadata?.resourceVersion;
      // ct.Status.Allocated = 1; r.Status().Update(ctx, &ct)
      ct.status = { allocated: 1 };
      await c.status().update(GPUBudget, ct);
      const stored = await c.get(GPUBudget, { namespace: "default", name: `go-${i}` });
      results.push({
        wroteBack: afterUpdate !== before && returnedRV === afterUpdate,
        uidKept: ct.metadata?.uid === stored.metadata?.uid,
        rvAfterStatus: ct.metadata?.resourceVersion === stored.metadata?.resourceVersion,
        finalizers: stored.metadata?.finalizers,
        status: stored.status,
      });
    }
    expect(results[0]).toEqual({
      wroteBack: true,
      uidKept: true,
      rvAfterStatus: true,
      finalizers: ["lab.example.com/cleanup"],
      status: { allocated: 1 },
    });
    expect(results[1]).toEqual(results[0]);
  });

  it("a status write on a kind without the status subresource names the marker, on both clients", async () => {
    const GPUQuota = defineKind<GPUBudget>({
      group: "capacity.lab.example.com",
      version: "v1",
      kind: "GPUQuota",
      plural: "gpuquotas",
      namespaced: false,
    });
    const fake = createFakeClient({ crdDirectoryPaths: [crdDir] });
    for (const c of [real, fake]) {
      const q = await c.create(GPUQuota, {
        apiVersion: "capacity.lab.example.com/v1",
        kind: "GPUQuota",
        metadata: { name: `nostatus-${c === real ? "real" : "fake"}` },
        spec: {},
      });
      const err = await c
        .status()
        .update(GPUQuota, { ...q, status: { x: 1 } })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(MissingSubresourceError);
      expect(isNotFound(err)).toBe(false);
      expect((err as Error).message).toContain("has no status subresource");
      expect((err as Error).message).toContain("// +kubebuilder:subresource:status");
      // A missing object is still a plain NotFound.
      const gone = await c
        .status()
        .update(GPUQuota, { ...q, metadata: { name: "absent" } })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isNotFound(gone)).toBe(true);
    }
  });
});
