import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { defineKind } from "../api/kind.js";
import { ConfigMap, Deployment, Namespace, Pod, Secret } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import type { Logger } from "../log/types.js";
import { restClientRequestsTotal } from "../metrics/registry.js";
import { type APIClient, createAPIReader, createClient } from "./client.js";
import { loadKubeConfig } from "./config.js";
import {
  AlreadyExistsError,
  ApiError,
  ConflictError,
  InvalidError,
  ignoreNotFound,
  isNotFound,
  NotFoundError,
} from "./errors.js";
import { jsonPatch, mergeFrom, mergePatch, strategicMergePatch } from "./patch.js";
import { resourcePath } from "./paths.js";
import { RequestAbortedError, RestClient } from "./rest.js";
import { retryOnConflict } from "./retry.js";

interface Widget extends KubernetesObject {
  spec?: { size?: number; color?: string };
  status?: { ready?: boolean; observed?: number };
}
const Widget = defineKind<Widget>({
  group: "client.kbts.io",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});

const widgetCRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.client.kbts.io" },
  spec: {
    group: "client.kbts.io",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
    scope: "Namespaced",
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: { size: { type: "integer", minimum: 1 }, color: { type: "string" } },
              },
              status: {
                type: "object",
                properties: { ready: { type: "boolean" }, observed: { type: "integer" } },
              },
            },
          },
        },
      },
    ],
  },
};

let env: Environment;
let client: APIClient;

beforeAll(async () => {
  env = await startEnvironment({ crds: [widgetCRD] });
  client = createClient(env.kubeConfig);
  await client.create(Namespace, { metadata: { name: "crud" } });
});

afterAll(async () => {
  await env?.stop();
});

const ns = "crud";

describe("CRUD with typed errors", () => {
  it("creates, gets, updates and deletes, always returning apiVersion and kind", async () => {
    const created = await client.create(ConfigMap, {
      metadata: { name: "c1", namespace: ns },
      data: { a: "1" },
    });
    expect(created).toMatchObject({ apiVersion: "v1", kind: "ConfigMap", data: { a: "1" } });
    expect(created.metadata?.uid).toBeTruthy();

    const got = await client.get(ConfigMap, { namespace: ns, name: "c1" });
    expect(got.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);

    got.data = { a: "2" };
    const updated = await client.update(ConfigMap, got);
    expect(updated.data).toEqual({ a: "2" });
    expect(updated.kind).toBe("ConfigMap");

    const items = await client.list(ConfigMap, { namespace: ns });
    expect(items.map((i) => [i.apiVersion, i.kind, i.metadata?.name])).toContainEqual([
      "v1",
      "ConfigMap",
      "c1",
    ]);

    await client.delete(ConfigMap, updated);
    await expect(client.get(ConfigMap, { namespace: ns, name: "c1" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("gives NotFoundError with the API server's message, and ignoreNotFound swallows it", async () => {
    const err = await client.get(Secret, { namespace: ns, name: "missing" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(isNotFound(err)).toBe(true);
    expect((err as NotFoundError).code).toBe(404);
    expect((err as Error).message).toBe('secrets "missing" not found');
    await expect(
      client.get(Secret, { namespace: ns, name: "missing" }).catch(ignoreNotFound),
    ).resolves.toBeUndefined();
    await expect(client.delete(Secret, { namespace: ns, name: "missing" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("gives ConflictError for a stale resourceVersion, and retryOnConflict recovers", async () => {
    const cm = await client.create(ConfigMap, { metadata: { name: "c2", namespace: ns }, data: { n: "0" } });
    const stale = structuredClone(cm);
    await client.update(ConfigMap, { ...cm, data: { n: "1" } });
    stale.data = { n: "stale" };
    const err = await client.update(ConfigMap, stale).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).code).toBe(409);
    expect((err as ConflictError).reason).toBe("Conflict");

    let attempts = 0;
    await retryOnConflict(async () => {
      attempts++;
      const fresh = attempts === 1 ? stale : await client.get(ConfigMap, { namespace: ns, name: "c2" });
      fresh.data = { n: "2" };
      await client.update(ConfigMap, fresh);
    });
    expect(attempts).toBe(2);
    expect((await client.get(ConfigMap, { namespace: ns, name: "c2" })).data).toEqual({ n: "2" });
  });

  it("gives AlreadyExistsError (a 409 that is not a Conflict) for a duplicate create", async () => {
    await client.create(ConfigMap, { metadata: { name: "dup", namespace: ns } });
    const err = await client
      .create(ConfigMap, { metadata: { name: "dup", namespace: ns } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AlreadyExistsError);
    expect(err).not.toBeInstanceOf(ConflictError);
    expect((err as AlreadyExistsError).code).toBe(409);
  });

  it("gives InvalidError with causes for a schema violation", async () => {
    const err = await client
      .create(Widget, { metadata: { name: "tiny", namespace: ns }, spec: { size: 0 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidError);
    expect((err as InvalidError).status.details?.causes?.[0]?.field).toBe("spec.size");
  });

  it("generateName creates unique names; dryRun persists nothing", async () => {
    const a = await client.create(ConfigMap, { metadata: { generateName: "gen-", namespace: ns } });
    expect(a.metadata?.name).toMatch(/^gen-/);
    const dry = await client.create(
      ConfigMap,
      { metadata: { name: "dry", namespace: ns } },
      { dryRun: true },
    );
    expect(dry.metadata?.name).toBe("dry");
    await expect(client.get(ConfigMap, { namespace: ns, name: "dry" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("deletes with preconditions: a wrong uid is a Conflict and nothing is deleted", async () => {
    const cm = await client.create(ConfigMap, { metadata: { name: "pre", namespace: ns } });
    const err = await client
      .delete(ConfigMap, cm, { preconditions: { uid: "00000000-0000-0000-0000-000000000000" } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    await client.delete(ConfigMap, cm, {
      preconditions: { uid: cm.metadata?.uid, resourceVersion: cm.metadata?.resourceVersion },
      propagationPolicy: "Foreground",
      gracePeriodSeconds: 0,
    });
    // Foreground deletion is carried out by the garbage collector, which envtest does not run: the
    // object stays, marked for deletion with the foreground finalizer (so the policy reached the server).
    const marked = await client.get(ConfigMap, { namespace: ns, name: "pre" });
    expect(marked.metadata?.deletionTimestamp).toBeTruthy();
    expect(marked.metadata?.finalizers).toEqual(["foregroundDeletion"]);
  });

  it("refuses a namespaced object without a namespace, naming what to set", async () => {
    await expect(client.create(ConfigMap, { metadata: { name: "x" } })).rejects.toThrow(
      /set metadata.namespace/,
    );
  });
});

describe("patches and server-side apply", () => {
  it("applies merge, JSON and strategic merge patches", async () => {
    const cm = await client.create(ConfigMap, {
      metadata: { name: "p", namespace: ns },
      data: { a: "1", b: "2" },
    });
    let out = await client.patch(ConfigMap, cm, mergePatch({ data: { b: null, c: "3" } }));
    expect(out.data).toEqual({ a: "1", c: "3" });
    out = await client.patch(
      ConfigMap,
      { namespace: ns, name: "p" },
      jsonPatch([{ op: "replace", path: "/data/a", value: "9" }]),
    );
    expect(out.data).toEqual({ a: "9", c: "3" });
    out = await client.patch(ConfigMap, out, strategicMergePatch({ metadata: { labels: { s: "y" } } }));
    expect(out.metadata?.labels).toEqual({ s: "y" });
    expect(out.kind).toBe("ConfigMap");
  });

  it("mergeFrom with optimisticLock fails on a concurrent change", async () => {
    const orig = await client.create(ConfigMap, {
      metadata: { name: "lock", namespace: ns },
      data: { v: "1" },
    });
    // Another writer: a copy, so `orig` keeps its resourceVersion (writes fill the object passed in).
    await client.patch(ConfigMap, { ...orig }, mergePatch({ data: { v: "other" } }));
    const mine = { ...orig, data: { v: "mine" } };
    await expect(
      client.patch(ConfigMap, orig, mergeFrom(orig, mine, { optimisticLock: true })),
    ).rejects.toBeInstanceOf(ConflictError);
    const ok = await client.patch(ConfigMap, orig, mergeFrom(orig, mine));
    expect(ok.data).toEqual({ v: "mine" });
  });

  it("server-side apply records the field manager, and force takes fields over", async () => {
    const applied = await client.apply(
      ConfigMap,
      { metadata: { name: "ssa", namespace: ns }, data: { owned: "by-a" } },
      { fieldManager: "manager-a" },
    );
    expect(applied.data).toEqual({ owned: "by-a" });
    expect(applied.metadata?.managedFields?.map((f) => [f.manager, f.operation])).toContainEqual([
      "manager-a",
      "Apply",
    ]);

    const conflict = await client
      .apply(
        ConfigMap,
        { metadata: { name: "ssa", namespace: ns }, data: { owned: "by-b" } },
        { fieldManager: "manager-b" },
      )
      .catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as Error).message).toMatch(/manager-a/);

    // An object read back (with managedFields) can be applied as is.
    const forced = await client.apply(
      ConfigMap,
      { ...applied, data: { owned: "by-b" } },
      {
        fieldManager: "manager-b",
        force: true,
      },
    );
    expect(forced.data).toEqual({ owned: "by-b" });
    expect(forced.metadata?.managedFields?.find((f) => f.manager === "manager-b")).toBeDefined();
  });

  it("refuses apply without a field manager", async () => {
    // @ts-expect-error fieldManager is required by the type too
    await expect(client.apply(ConfigMap, { metadata: { name: "x", namespace: ns } }, {})).rejects.toThrow(
      /fieldManager/,
    );
  });
});

describe("status and other subresources", () => {
  it("status().update writes only status; update ignores status", async () => {
    const w = await client.create(Widget, { metadata: { name: "w1", namespace: ns }, spec: { size: 2 } });
    expect(w.apiVersion).toBe("client.kbts.io/v1");

    const withStatus = await client
      .status()
      .update(Widget, { ...w, status: { ready: true, observed: 1 }, spec: { size: 99 } });
    expect(withStatus.status).toEqual({ ready: true, observed: 1 });
    expect(withStatus.spec?.size).toBe(2);

    const afterUpdate = await client.update(Widget, {
      ...withStatus,
      spec: { size: 3 },
      status: { ready: false },
    });
    expect(afterUpdate.spec?.size).toBe(3);
    expect(afterUpdate.status).toEqual({ ready: true, observed: 1 });

    const patched = await client.status().patch(Widget, afterUpdate, mergePatch({ status: { observed: 2 } }));
    expect(patched.status).toEqual({ ready: true, observed: 2 });
    const got = await client.status().get(Widget, { namespace: ns, name: "w1" });
    expect(got.status?.observed).toBe(2);
    expect(got.kind).toBe("Widget");
  });

  it("evicts a pod through the eviction subresource", async () => {
    const p = await client.create(Pod, {
      metadata: { name: "evict-me", namespace: ns },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    });
    await client.subResource("eviction").create(Pod, p, {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "evict-me", namespace: ns },
    });
    // An unscheduled pod has no kubelet to wait for: eviction deletes it at once.
    await expect(client.get(Pod, { namespace: ns, name: "evict-me" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reads and writes a deployment's scale subresource", async () => {
    const labels = { app: "scale" };
    await client.create(Deployment, {
      metadata: { name: "d", namespace: ns },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "busybox" }] } },
      },
    });
    const scale = await client.subResource("scale").get(Deployment, { namespace: ns, name: "d" });
    expect(scale).toMatchObject({ kind: "Scale", apiVersion: "autoscaling/v1", spec: { replicas: 1 } });
    // The scale subresource speaks autoscaling/v1 Scale, not the parent's type.
    await client.subResource("scale").update(Deployment, { ...scale, spec: { replicas: 4 } } as Deployment);
    expect((await client.get(Deployment, { namespace: ns, name: "d" })).spec?.replicas).toBe(4);
  });
});

describe("lists", () => {
  beforeAll(async () => {
    await client.create(Namespace, { metadata: { name: "lists" } });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client.create(Pod, {
          metadata: {
            name: `p${i}`,
            namespace: "lists",
            labels: { tier: i % 2 ? "odd" : "even", idx: String(i) },
          },
          spec: { containers: [{ name: "c", image: "busybox" }] },
        }),
      ),
    );
  });

  it("filters by label selector in all three forms", async () => {
    const names = (items: Pod[]) => items.map((p) => p.metadata?.name).sort();
    const even = await client.list(Pod, { namespace: "lists", labelSelector: "tier=even,idx notin (0,2)" });
    expect(names(even)).toEqual(["p10", "p4", "p6", "p8"]);
    expect(
      names(await client.list(Pod, { namespace: "lists", labelSelector: { tier: "odd", idx: "1" } })),
    ).toEqual(["p1"]);
    const sel = await client.list(Pod, {
      namespace: "lists",
      labelSelector: { matchExpressions: [{ key: "idx", operator: "In", values: ["3", "5"] }] },
    });
    expect(names(sel)).toEqual(["p3", "p5"]);
  });

  it("pages through everything without a limit, and honours a limit", async () => {
    const all = await client.list(Pod, { namespace: "lists" });
    expect(all).toHaveLength(12);
    expect(all.every((p) => p.kind === "Pod" && p.apiVersion === "v1")).toBe(true);
    expect(await client.list(Pod, { namespace: "lists", limit: 5 })).toHaveLength(5);
  });

  it("turns matchingFields into a server-side field selector on uncached reads", async () => {
    const reader = createAPIReader(env.kubeConfig);
    const one = await reader.list(Pod, { namespace: "lists", matchingFields: { "metadata.name": "p7" } });
    expect(one.map((p) => p.metadata?.name)).toEqual(["p7"]);
  });

  it("lists cluster-scoped kinds", async () => {
    const nss = await client.list(Namespace);
    expect(nss.map((n) => n.metadata?.name)).toEqual(expect.arrayContaining(["default", "crud", "lists"]));
  });
});

describe("REST layer against the real server", () => {
  it("streams watch events line by line until its signal aborts", async () => {
    const rest = new RestClient(env.kubeConfig);
    const start = await client.create(ConfigMap, { metadata: { generateName: "w-", namespace: ns } });
    const ac = new AbortController();
    const seen: string[] = [];
    const watching = rest
      .watch(
        `${resourcePath(ConfigMap, { namespace: ns })}?watch=true&resourceVersion=${start.metadata?.resourceVersion}`,
        (e) => {
          seen.push(`${e.type} ${(e.object as ConfigMap).metadata?.name}`);
          if (seen.length === 2) ac.abort();
        },
        ac.signal,
      )
      .catch((e: unknown) => e);
    await client.patch(ConfigMap, start, mergePatch({ data: { a: "1" } }));
    await client.delete(ConfigMap, start);
    expect(await watching).toBeInstanceOf(RequestAbortedError);
    expect(seen).toEqual([`MODIFIED ${start.metadata?.name}`, `DELETED ${start.metadata?.name}`]);
    rest.close();
  });
});

describe("configuration and metrics", () => {
  it("loads the environment's kubeconfig through KUBECONFIG", async () => {
    const before = process.env.KUBECONFIG;
    process.env.KUBECONFIG = env.kubeconfigPath;
    try {
      const kc = loadKubeConfig();
      expect(kc.getCurrentCluster()?.server).toBe(env.kubeConfig.getCurrentCluster()?.server);
      const ns = await createClient(kc).get(Namespace, { name: "default" });
      expect(ns.metadata?.name).toBe("default");
    } finally {
      if (before === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = before;
    }
    expect(() => loadKubeConfig({ path: "/nonexistent/kubeconfig" })).toThrow(/does not exist/);
    expect(() => loadKubeConfig({ path: env.kubeconfigPath, context: "nope" })).toThrow(/no context "nope"/);
  });

  it("authenticates through a kubeconfig exec plugin (client-node runs it; our requests carry its credentials)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-exec-"));
    try {
      const config = env.config!;
      const credential = JSON.stringify({
        apiVersion: "client.authentication.k8s.io/v1",
        kind: "ExecCredential",
        status: { clientCertificateData: config.certData, clientKeyData: config.keyData },
      });
      const plugin = join(dir, "credential-plugin.sh");
      writeFileSync(plugin, `#!/bin/sh\necho run >> "${dir}/calls"\ncat <<'JSON'\n${credential}\nJSON\n`, {
        mode: 0o755,
      });
      const kubeconfigPath = join(dir, "kubeconfig");
      writeFileSync(
        kubeconfigPath,
        stringify({
          apiVersion: "v1",
          kind: "Config",
          clusters: [
            {
              name: "envtest",
              cluster: {
                server: config.host,
                "certificate-authority-data": Buffer.from(config.caData).toString("base64"),
              },
            },
          ],
          users: [
            {
              name: "exec",
              user: {
                exec: {
                  apiVersion: "client.authentication.k8s.io/v1",
                  command: plugin,
                  interactiveMode: "Never",
                },
              },
            },
          ],
          contexts: [{ name: "exec", context: { cluster: "envtest", user: "exec" } }],
          "current-context": "exec",
        }),
      );
      const viaExec = createClient(loadKubeConfig({ path: kubeconfigPath }));
      expect((await viaExec.get(Namespace, { name: "default" })).metadata?.name).toBe("default");
      expect(readFileSync(join(dir, "calls"), "utf8")).toContain("run");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("logs the API server's warnings (here: an unknown field dropped on create)", async () => {
    const warnings: string[] = [];
    const logger = {
      info: () => {},
      debug: () => {},
      error: () => {},
      warn: (o: unknown) => {
        warnings.push(String((o as { warning?: string }).warning));
      },
      child: () => logger,
    } as unknown as Logger;
    const warned = createClient(env.kubeConfig, { logger });
    await warned.create(ConfigMap, {
      metadata: { generateName: "warn-", namespace: ns },
      bogus: 1,
    } as ConfigMap);
    expect(warnings).toContain('unknown field "bogus"');
    const strict = await warned
      .create(ConfigMap, { metadata: { generateName: "strict-", namespace: ns }, bogus: 1 } as ConfigMap, {
        fieldValidation: "Strict",
      })
      .catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(ApiError);
    expect((strict as ApiError).message).toMatch(/unknown field "bogus"/);
  });

  it("counts every request in rest_client_requests_total by code, method and host", async () => {
    const host = new URL(env.kubeConfig.getCurrentCluster()!.server).host;
    const value = async (code: string, method: string) =>
      (await restClientRequestsTotal.get()).values.find(
        (v) => v.labels.code === code && v.labels.method === method && v.labels.host === host,
      )?.value ?? 0;
    const get404 = await value("404", "GET");
    const post201 = await value("201", "POST");
    await client.get(ConfigMap, { namespace: ns, name: "nothing-here" }).catch(ignoreNotFound);
    await client.create(ConfigMap, { metadata: { generateName: "m-", namespace: ns } });
    expect(await value("404", "GET")).toBe(get404 + 1);
    expect(await value("201", "POST")).toBe(post201 + 1);
  });
});
