import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defineKind, metadataOnly } from "../api/kind.js";
import { ConfigMap, Pod } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import { ConflictError, InvalidError, isAlreadyExists, isConflict, isNotFound } from "../client/errors.js";
import { mergePatch } from "../client/patch.js";
import { createFakeClient } from "./index.js";

interface GPUBudget extends KubernetesObject {
  spec?: {
    maxGPUs?: number;
    minGPUs?: number;
    tier?: string;
    owner?: string;
    team?: string;
    port?: number | string;
    ratio?: number | null;
    labels?: Record<string, string>;
    zones?: string[];
    extra?: Record<string, unknown>;
    [k: string]: unknown;
  };
  status?: { allocated?: number };
}
const GPUBudget = defineKind<GPUBudget>({
  group: "capacity.lab.example.com",
  version: "v1",
  kind: "GPUBudget",
  plural: "gpubudgets",
  namespaced: true,
});

const crdDir = fileURLToPath(new URL("./testdata", import.meta.url));
const newClient = (objects: KubernetesObject[] = []) =>
  createFakeClient({ crdDirectoryPaths: [crdDir], objects });
const budget = (spec: GPUBudget["spec"], name = "b"): GPUBudget => ({
  apiVersion: "capacity.lab.example.com/v1",
  kind: "GPUBudget",
  metadata: { name, namespace: "lab" },
  spec,
});

async function invalidMessage(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidError);
  expect((err as InvalidError).code).toBe(422);
  return (err as InvalidError).message;
}

describe("fake client: CRD schema and CEL validation", () => {
  it("rejects a value under the schema minimum with the API server's message", async () => {
    const c = newClient();
    expect(await invalidMessage(c.create(GPUBudget, budget({ maxGPUs: -1 })))).toBe(
      'GPUBudget.capacity.lab.example.com "b" is invalid: spec.maxGPUs: Invalid value: -1: spec.maxGPUs in body should be greater than or equal to 0',
    );
  });

  it("rejects a value outside the enum", async () => {
    const c = newClient();
    expect(await invalidMessage(c.create(GPUBudget, budget({ maxGPUs: 1, tier: "platinum" })))).toBe(
      'GPUBudget.capacity.lab.example.com "b" is invalid: [spec.tier: Unsupported value: "platinum": supported values: "gold", "silver", "bronze", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
    );
  });

  it("rejects an object its CEL rule forbids, with the rule's message", async () => {
    const c = newClient();
    expect(await invalidMessage(c.create(GPUBudget, budget({ maxGPUs: 2, minGPUs: 3 })))).toBe(
      'GPUBudget.capacity.lab.example.com "b" is invalid: spec: Invalid value: minGPUs must not exceed maxGPUs',
    );
  });

  it("evaluates messageExpression for the message", async () => {
    const c = newClient();
    expect(await invalidMessage(c.create(GPUBudget, budget({ maxGPUs: 2, team: "ml" })))).toBe(
      'GPUBudget.capacity.lab.example.com "b" is invalid: spec.team: Invalid value: "ml": team must start with team-, got ml',
    );
  });

  it("runs transition rules (oldSelf) on update only", async () => {
    const c = newClient();
    const created = await c.create(GPUBudget, budget({ maxGPUs: 2, tier: "gold" }));
    created.spec = { ...created.spec, tier: "silver" };
    expect(await invalidMessage(c.update(GPUBudget, created))).toContain(
      "spec: Invalid value: tier is immutable",
    );
  });

  it("sees declared properties under Kubernetes' escaped CEL names (__namespace__, x__dash__y)", async () => {
    const crd = {
      spec: {
        group: "esc.example.com",
        names: { kind: "Esc", plural: "escs" },
        versions: [
          {
            name: "v1",
            schema: {
              openAPIV3Schema: {
                type: "object" as const,
                properties: {
                  spec: {
                    type: "object" as const,
                    properties: {
                      namespace: { type: "string" as const },
                      "x-y": { type: "string" as const },
                      labels: { type: "object" as const, additionalProperties: { type: "string" as const } },
                    },
                    "x-kubernetes-validations": [
                      {
                        rule: "self.__namespace__ != self.x__dash__y && !('x-y' in self.?labels.orValue({}))",
                        message: "namespace and x-y differ, no x-y label",
                      },
                    ],
                  },
                },
              },
            },
          },
        ],
      },
    };
    const Esc = defineKind({
      group: "esc.example.com",
      version: "v1",
      kind: "Esc",
      plural: "escs",
      namespaced: false,
    });
    const c = createFakeClient({ crds: [crd] });
    await c.create(Esc, {
      metadata: { name: "ok" },
      spec: { namespace: "a", "x-y": "b" },
    } as KubernetesObject);
    expect(
      await invalidMessage(
        c.create(Esc, {
          metadata: { name: "same" },
          spec: { namespace: "a", "x-y": "a" },
        } as KubernetesObject),
      ),
    ).toContain("namespace and x-y differ");
    expect(
      await invalidMessage(
        c.create(Esc, {
          metadata: { name: "label" },
          spec: { namespace: "a", "x-y": "b", labels: { "x-y": "1" } },
        } as KubernetesObject),
      ),
    ).toContain("no x-y label");
  });

  it("runs optionalOldSelf rules on create too, with oldSelf as an optional", async () => {
    const crd = {
      spec: {
        group: "opt.example.com",
        names: { kind: "Opt", plural: "opts" },
        versions: [
          {
            name: "v1",
            schema: {
              openAPIV3Schema: {
                type: "object" as const,
                properties: {
                  spec: {
                    type: "object" as const,
                    properties: {
                      n: {
                        type: "integer" as const,
                        "x-kubernetes-validations": [
                          {
                            rule: "oldSelf.hasValue() ? self >= oldSelf.value() : self < 10",
                            optionalOldSelf: true,
                            message: "n may only grow, from under 10",
                          },
                        ],
                      },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    const Opt = defineKind({
      group: "opt.example.com",
      version: "v1",
      kind: "Opt",
      plural: "opts",
      namespaced: false,
    });
    const c = createFakeClient({ crds: [crd] });
    expect(
      await invalidMessage(c.create(Opt, { metadata: { name: "big" }, spec: { n: 11 } } as KubernetesObject)),
    ).toContain("spec.n: Invalid value: 11: n may only grow, from under 10");
    const ok = await c.create(Opt, { metadata: { name: "o" }, spec: { n: 5 } } as KubernetesObject);
    await c.update(Opt, { ...ok, spec: { n: 20 } } as KubernetesObject);
    const cur = await c.get(Opt, { name: "o" });
    expect(await invalidMessage(c.update(Opt, { ...cur, spec: { n: 19 } } as KubernetesObject))).toContain(
      "n may only grow",
    );
  });

  it("lists every error, bracketed, for several problems", async () => {
    const c = newClient();
    const message = await invalidMessage(
      c.create(GPUBudget, budget({ owner: "TooLongName", zones: ["a", "a"] })),
    );
    expect(message).toMatch(/^GPUBudget\.capacity\.lab\.example\.com "b" is invalid: \[/);
    expect(message).toContain("spec.maxGPUs: Required value");
    expect(message).toContain("spec.owner: Too long: may not be more than 8 bytes");
    expect(message).toContain(
      "spec.owner: Invalid value: \"TooLongName\": spec.owner in body should match '^[a-z]+$'",
    );
    expect(message).toContain('spec.zones[1]: Duplicate value: "a"');
  });

  it("applies defaults, prunes unknown fields (warning about them) and keeps preserved ones", async () => {
    const c = newClient();
    const created = await c.create(
      GPUBudget,
      budget({ maxGPUs: 1, bogus: true, extra: { anything: { goes: 1 } }, labels: { a: "b" }, port: "http" }),
    );
    expect(created.spec).toEqual({
      maxGPUs: 1,
      tier: "bronze",
      extra: { anything: { goes: 1 } },
      labels: { a: "b" },
      port: "http",
    });
    expect(c.warnings()).toEqual(['unknown field "spec.bogus"']);
  });

  it("checks types, int-or-string and nullable", async () => {
    const c = newClient();
    expect(await invalidMessage(c.create(GPUBudget, budget({ maxGPUs: "two" as unknown as number })))).toBe(
      'GPUBudget.capacity.lab.example.com "b" is invalid: [spec.maxGPUs: Invalid value: "string": spec.maxGPUs in body must be of type integer: "string", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
    );
    await c.create(GPUBudget, budget({ maxGPUs: 1, port: 8080, ratio: null }, "ok"));
    expect(await invalidMessage(c.create(GPUBudget, budget({ maxGPUs: 1, port: 1.5 }, "bad")))).toContain(
      "spec.port",
    );
  });

  it("validates label values like the API server (a common mistake: a name-derived value over 63 bytes)", async () => {
    const c = createFakeClient();
    const message = await invalidMessage(
      c.create(ConfigMap, { metadata: { name: "x", namespace: "n", labels: { owner: "y".repeat(64) } } }),
    );
    expect(message).toBe(
      `ConfigMap "x" is invalid: metadata.labels: Invalid value: "${"y".repeat(64)}": must be no more than 63 bytes`,
    );
  });

  it("validates metadata.name", async () => {
    const c = newClient();
    expect(await invalidMessage(c.create(GPUBudget, budget({ maxGPUs: 1 }, "Bad_Name")))).toContain(
      'metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain',
    );
  });

  it("fails at construction on a CEL rule that does not parse, naming the CRD", () => {
    expect(() =>
      createFakeClient({
        crds: [
          {
            spec: {
              group: "x.example.com",
              names: { kind: "X", plural: "xs" },
              versions: [
                {
                  name: "v1",
                  schema: {
                    openAPIV3Schema: { type: "object", "x-kubernetes-validations": [{ rule: "self.a >" }] },
                  },
                },
              ],
            },
          },
        ],
      }),
    ).toThrow(/crds\[0\].*invalid x-kubernetes-validations rule "self.a >"/);
  });
});

describe("fake client: API semantics", () => {
  it("sets uid, creationTimestamp, resourceVersion and generation 1 on create, and refuses a set resourceVersion", async () => {
    const c = newClient();
    const created = await c.create(GPUBudget, budget({ maxGPUs: 1 }));
    expect(created.metadata).toMatchObject({
      generation: 1,
      resourceVersion: expect.stringMatching(/^\d+$/),
    });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const again = budget({ maxGPUs: 1 }, "c");
    again.metadata!.resourceVersion = "5";
    await expect(c.create(GPUBudget, again)).rejects.toThrow(
      "resourceVersion can not be set for Create requests",
    );
    await expect(c.create(GPUBudget, budget({ maxGPUs: 1 }))).rejects.toSatisfy(isAlreadyExists);
  });

  it("conflicts on a stale resourceVersion and bumps generation only on spec changes", async () => {
    const c = newClient();
    const v1 = await c.create(GPUBudget, budget({ maxGPUs: 1 }));
    const v2 = await c.update(GPUBudget, { ...v1, spec: { ...v1.spec, maxGPUs: 2 } });
    expect(v2.metadata?.generation).toBe(2);
    expect(Number(v2.metadata?.resourceVersion)).toBeGreaterThan(Number(v1.metadata?.resourceVersion));
    const err = await c
      .update(GPUBudget, { ...v1, spec: { ...v1.spec, maxGPUs: 3 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as Error).message).toBe(
      'Operation cannot be fulfilled on gpubudgets.capacity.lab.example.com "b": the object has been modified; please apply your changes to the latest version and try again',
    );
    const labelled = await c.update(GPUBudget, { ...v2, metadata: { ...v2.metadata, labels: { a: "b" } } });
    expect(labelled.metadata?.generation).toBe(2);
    const same = await c.update(GPUBudget, labelled);
    expect(same.metadata?.resourceVersion).toBe(labelled.metadata?.resourceVersion);
  });

  it("requires a resourceVersion to update a custom resource", async () => {
    const c = newClient();
    await c.create(GPUBudget, budget({ maxGPUs: 1 }));
    expect(await invalidMessage(c.update(GPUBudget, budget({ maxGPUs: 2 })))).toContain(
      "metadata.resourceVersion: Invalid value: 0: must be specified for an update",
    );
  });

  it("keeps status out of main writes and spec out of status writes", async () => {
    const c = newClient();
    const created = await c.create(GPUBudget, { ...budget({ maxGPUs: 1 }), status: { allocated: 9 } });
    expect(created.status).toBeUndefined();
    const updated = await c.update(GPUBudget, {
      ...created,
      spec: { ...created.spec, maxGPUs: 4 },
      status: { allocated: 1 },
    });
    expect(updated.status).toBeUndefined();
    const withStatus = await c
      .status()
      .update(GPUBudget, { ...updated, spec: { maxGPUs: 100 }, status: { allocated: 2 } });
    expect(withStatus.status).toEqual({ allocated: 2 });
    expect(withStatus.spec?.maxGPUs).toBe(4);
    expect(withStatus.metadata?.generation).toBe(updated.metadata?.generation);
    const patched = await c
      .status()
      .patch(GPUBudget, withStatus, { type: "merge", data: { status: { allocated: 3 } } });
    expect(patched.status).toEqual({ allocated: 3 });
    expect(
      await invalidMessage(
        c.status().patch(GPUBudget, patched, { type: "merge", data: { status: { allocated: -1 } } }),
      ),
    ).toContain("status.allocated: Invalid value: -1");
    await expect(
      c.status().update(ConfigMap, { metadata: { name: "x", namespace: "lab" } }),
    ).rejects.toSatisfy(isNotFound);
  });

  it("applies merge and JSON patches, with resourceVersion in a merge patch as an optimistic lock", async () => {
    const c = newClient();
    const created = await c.create(GPUBudget, budget({ maxGPUs: 1, labels: { a: "1", b: "2" } }));
    const merged = await c.patch(GPUBudget, created, {
      type: "merge",
      data: { spec: { labels: { a: null, c: "3" } } },
    });
    expect(merged.spec?.labels).toEqual({ b: "2", c: "3" });
    const jsoned = await c.patch(
      GPUBudget,
      { namespace: "lab", name: "b" },
      {
        type: "json",
        data: [{ op: "replace", path: "/spec/maxGPUs", value: 5 }],
      },
    );
    expect(jsoned.spec?.maxGPUs).toBe(5);
    await expect(
      c.patch(GPUBudget, created, {
        type: "merge",
        data: { metadata: { resourceVersion: created.metadata?.resourceVersion }, spec: { maxGPUs: 7 } },
      }),
    ).rejects.toSatisfy(isConflict);
    expect(
      await invalidMessage(c.patch(GPUBudget, created, { type: "merge", data: { spec: { maxGPUs: -5 } } })),
    ).toContain("greater than or equal to 0");
  });

  it("marks an object with finalizers for deletion and deletes it when the last finalizer goes", async () => {
    const c = newClient();
    const created = await c.create(GPUBudget, {
      ...budget({ maxGPUs: 1 }),
      metadata: { name: "b", namespace: "lab", finalizers: ["x/y"] },
    });
    await c.delete(GPUBudget, created);
    const marked = await c.get(GPUBudget, { namespace: "lab", name: "b" });
    expect(marked.metadata?.deletionTimestamp).toBeDefined();
    expect(
      await invalidMessage(
        c.update(GPUBudget, { ...marked, metadata: { ...marked.metadata, finalizers: ["x/y", "new/one"] } }),
      ),
    ).toContain(
      "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted",
    );
    await c.update(GPUBudget, { ...marked, metadata: { ...marked.metadata, finalizers: [] } });
    await expect(c.get(GPUBudget, { namespace: "lab", name: "b" })).rejects.toSatisfy(isNotFound);
    await expect(c.delete(GPUBudget, created)).rejects.toThrow(
      'gpubudgets.capacity.lab.example.com "b" not found',
    );
  });

  it("lists frozen objects with unsafeDisableDeepCopy, as the cache does, so a write to one throws", async () => {
    const c = createFakeClient();
    await c.create(ConfigMap, { metadata: { name: "a", namespace: "n" }, data: { v: "1" } });
    const [frozen] = await c.list(ConfigMap, { namespace: "n", unsafeDisableDeepCopy: true });
    expect(() => {
      if (frozen?.data) frozen.data.v = "2";
    }).toThrow(TypeError);
    const [copy] = await c.list(ConfigMap, { namespace: "n" });
    if (copy?.data) copy.data.v = "2";
    expect((await c.get(ConfigMap, { namespace: "n", name: "a" })).data).toEqual({ v: "1" });
  });

  it("lists by namespace, label selector and registered field index, and refuses an unindexed field", async () => {
    const c = createFakeClient({
      objects: [
        {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "a", namespace: "n1", labels: { app: "web" } },
          spec: { nodeName: "node1" },
        },
        {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "b", namespace: "n1", labels: { app: "db" } },
          spec: { nodeName: "node2" },
        },
        {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "c", namespace: "n2", labels: { app: "web" } },
          spec: { nodeName: "node1" },
        },
      ] as unknown as KubernetesObject[],
      indexes: [
        {
          kind: Pod,
          field: "spec.nodeName",
          extract: (p: { spec?: { nodeName?: string } }) => [p.spec?.nodeName ?? ""],
        },
      ],
    });
    const names = (l: KubernetesObject[]) => l.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`);
    expect(names(await c.list(Pod))).toEqual(["n1/a", "n1/b", "n2/c"]);
    expect(names(await c.list(Pod, { namespace: "n1" }))).toEqual(["n1/a", "n1/b"]);
    expect(names(await c.list(Pod, { labelSelector: "app=web" }))).toEqual(["n1/a", "n2/c"]);
    expect(
      names(
        await c.list(Pod, {
          labelSelector: { matchExpressions: [{ key: "app", operator: "NotIn", values: ["web"] }] },
        }),
      ),
    ).toEqual(["n1/b"]);
    expect(
      names(await c.list(Pod, { matchingFields: { "spec.nodeName": "node1" }, namespace: "n2" })),
    ).toEqual(["n2/c"]);
    await expect(c.list(Pod, { matchingFields: { "spec.hostIP": "x" } })).rejects.toThrow(
      /no index with name spec.hostIP/,
    );
    const first = await c.get(Pod, { namespace: "n1", name: "a" });
    expect(first.apiVersion).toBe("v1");
    expect(first.kind).toBe("Pod");
  });

  it("refuses a seed object whose kind it does not know", () => {
    expect(() =>
      createFakeClient({ objects: [{ apiVersion: "x.io/v1", kind: "Thing", metadata: { name: "t" } }] }),
    ).toThrow(/unknown kind x.io\/v1 Thing/);
  });
});

describe("fake client: Kubernetes CEL library additions", () => {
  const rulesCRD = (rules: string[]) => ({
    spec: {
      group: "cel.example.com",
      names: { kind: "Rules", plural: "rules" },
      versions: [
        {
          name: "v1",
          schema: {
            openAPIV3Schema: {
              type: "object" as const,
              properties: {
                spec: {
                  type: "object" as const,
                  "x-kubernetes-validations": rules.map((rule) => ({ rule })),
                  properties: {
                    l: { type: "array" as const, items: { type: "integer" as const } },
                    s: { type: "string" as const },
                    r: { type: "number" as const },
                  },
                },
              },
            },
          },
        },
      ],
    },
  });
  const Rules = defineKind({
    group: "cel.example.com",
    version: "v1",
    kind: "Rules",
    plural: "rules",
    namespaced: false,
  });
  const check = async (rule: string, spec: Record<string, unknown>) => {
    const c = createFakeClient({ crds: [rulesCRD([rule])] });
    return c.create(Rules, { metadata: { name: "r" }, spec } as KubernetesObject).then(
      () => true,
      (e: Error) => (e instanceof InvalidError ? false : Promise.reject(e)),
    );
  };

  it.each([
    ["self.l.isSorted()", { l: [1, 2, 3] }, true],
    ["self.l.isSorted()", { l: [3, 1] }, false],
    ["self.l.sum() == 6 && self.l.min() == 1 && self.l.max() == 3", { l: [1, 2, 3] }, true],
    ["self.l.indexOf(2) == 1 && self.l.lastIndexOf(9) == -1", { l: [1, 2, 3] }, true],
    [
      "sets.contains(self.l, [1, 3]) && sets.intersects(self.l, [3, 7]) && sets.equivalent(self.l, [3, 2, 1])",
      { l: [1, 2, 3] },
      true,
    ],
    ["sets.contains(self.l, [4])", { l: [1, 2, 3] }, false],
    [
      "self.s.replace('-', '_') == 'a_b' && self.s.charAt(1) == '-' && self.s.reverse() == 'b-a'",
      { s: "a-b" },
      true,
    ],
    ["self.s.find('[0-9]+') == '42' && self.s.findAll('[a-z]') == ['a', 'b']", { s: "a42b" }, true],
    ["self.r == 2 && self.l[0] == 1.0", { r: 2, l: [1] }, true],
  ])("%s on %j is %s", async (rule, spec, ok) => {
    expect(await check(rule, spec)).toBe(ok);
  });
});

describe("fake client: more API behaviour", () => {
  it("generates names from generateName", async () => {
    const c = createFakeClient();
    const a = await c.create(ConfigMap, { metadata: { generateName: "cfg-", namespace: "n" } });
    const b = await c.create(ConfigMap, { metadata: { generateName: "cfg-", namespace: "n" } });
    expect(a.metadata?.name).toMatch(/^cfg-[0-9a-f]{5}$/);
    expect(b.metadata?.name).not.toBe(a.metadata?.name);
  });

  it("does not store dry-run writes", async () => {
    const c = newClient();
    const dry = await c.create(GPUBudget, budget({ maxGPUs: 1 }), { dryRun: true });
    expect(dry.spec?.tier).toBe("bronze");
    await expect(c.get(GPUBudget, { namespace: "lab", name: "b" })).rejects.toSatisfy(isNotFound);
  });

  it("applies server-side apply as create, then as a merge of the applied fields", async () => {
    const c = newClient();
    const first = await c.apply(GPUBudget, budget({ maxGPUs: 1, labels: { a: "1" } }), {
      fieldManager: "me",
    });
    expect(first.metadata?.generation).toBe(1);
    const second = await c.apply(GPUBudget, budget({ maxGPUs: 2, labels: { b: "2" } }), {
      fieldManager: "me",
    });
    expect(second.spec).toMatchObject({ maxGPUs: 2, labels: { a: "1", b: "2" } });
    expect(second.metadata?.generation).toBe(2);
  });

  it("checks delete preconditions", async () => {
    const c = newClient();
    const created = await c.create(GPUBudget, budget({ maxGPUs: 1 }));
    await expect(c.delete(GPUBudget, created, { preconditions: { uid: "other" } })).rejects.toSatisfy(
      isConflict,
    );
    await expect(
      c.delete(GPUBudget, created, { preconditions: { resourceVersion: created.metadata?.resourceVersion } }),
    ).resolves.toBeUndefined();
  });

  it("drops the namespace of cluster-scoped objects and needs one for namespaced objects", async () => {
    const c = createFakeClient();
    const ns = await c.create(
      defineKind({ group: "", version: "v1", kind: "Namespace", plural: "namespaces", namespaced: false }),
      { metadata: { name: "team", namespace: "ignored" } },
    );
    expect(ns.metadata?.namespace).toBeUndefined();
    await expect(c.create(ConfigMap, { metadata: { name: "x" } })).rejects.toThrow(
      /has no metadata.namespace/,
    );
  });
});

describe("fake client: writes fill the object passed in, as controller-runtime's do", () => {
  it("create, update, patch and status writes leave the server's answer in the object", async () => {
    const c = newClient();
    const obj = budget({ maxGPUs: 1 });
    const created = await c.create(GPUBudget, obj);
    expect(created).toBe(obj);
    expect(obj.metadata?.resourceVersion).toBeTruthy();
    expect(obj.metadata?.uid).toBeTruthy();
    obj.metadata = { ...obj.metadata, finalizers: ["lab.example.com/cleanup"] };
    const rv = obj.metadata.resourceVersion;
    await c.update(GPUBudget, obj);
    expect(obj.metadata?.resourceVersion).not.toBe(rv);
    obj.status = { allocated: 2 };
    await c.status().update(GPUBudget, obj);
    expect(obj.status).toEqual({ allocated: 2 });
    await c.patch(GPUBudget, obj, { type: "merge", data: { spec: { maxGPUs: 3 } } });
    expect(obj.spec?.maxGPUs).toBe(3);
    expect(obj.metadata?.generation).toBe(2);
    expect(await c.get(GPUBudget, { namespace: "lab", name: "b" })).toEqual(obj);
  });

  it("a kind registered without a CRD is flagged at setup, and its status writes name the marker", async () => {
    const Thing = defineKind<GPUBudget>({
      group: "stable.example.com",
      version: "v1",
      kind: "CronTab",
      plural: "crontabs",
      namespaced: true,
    });
    const c = createFakeClient({ kinds: [Thing] });
    expect(c.warnings().join("\n")).toMatch(
      /CronTab \(stable\.example\.com\/v1\) is registered with kinds and no CRD/,
    );
    const ct = await c.create(Thing, {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "ct", namespace: "default" },
    });
    const err = await c
      .status()
      .update(Thing, { ...ct, status: { allocated: 1 } })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(err?.message).toMatch(/has no status subresource/);
    expect(err?.message).toContain("// +kubebuilder:subresource:status");
    expect(err?.message).toContain("crdDirectoryPaths");
    expect(isNotFound(err)).toBe(false);

    const withStatus = createFakeClient({ kinds: [{ kind: Thing, statusSubresource: true }] });
    expect(withStatus.warnings()).toEqual([]);
    const ct2 = await withStatus.create(Thing, {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "ct", namespace: "default" },
    });
    ct2.status = { allocated: 1 };
    await withStatus.status().update(Thing, ct2);
    expect((await withStatus.get(Thing, { namespace: "default", name: "ct" })).status).toEqual({
      allocated: 1,
    });
  });
});

describe("fake client: metadata-only reads and writes", () => {
  it("answers metadataOnly(Kind) with metadata only and refuses a create or update from it", async () => {
    const c = createFakeClient({
      objects: [
        {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: "a", namespace: "ns" },
          data: { k: "v" },
        } as ConfigMap,
      ],
    });
    const meta = await c.get(metadataOnly(ConfigMap), { namespace: "ns", name: "a" });
    expect(Object.keys(meta).sort()).toEqual(["apiVersion", "kind", "metadata"]);
    expect(meta.kind).toBe("ConfigMap");
    expect(
      (await c.list(metadataOnly(ConfigMap), { namespace: "ns" })).map((o) => Object.keys(o).length),
    ).toEqual([3]);
    const patched = await c.patch(
      metadataOnly(ConfigMap),
      meta,
      mergePatch({ metadata: { labels: { x: "y" } } }),
    );
    expect(patched).not.toHaveProperty("data");
    await expect(c.update(metadataOnly(ConfigMap), patched)).rejects.toThrow(
      /cannot update ConfigMap "a" from its metadata only/,
    );
    expect((await c.get(ConfigMap, { namespace: "ns", name: "a" })).data).toEqual({ k: "v" });
  });
});
