import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustomResourceDefinition } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import { webhookManagedBy } from "../builder/index.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import {
  GadgetV1,
  GadgetV1alpha1,
  GadgetV2,
  gadgetConverter,
  gadgetCRD,
  gadgetV1alpha1Spoke,
  gadgetV2Spoke,
  poison,
  type GadgetV1alpha1 as V1alpha1,
  type GadgetV2 as V2,
} from "../conversion/testdata/gadget.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import { nopLogger } from "../log/logger.js";
import { createManager } from "../manager/index.js";
import { metricsRegistry } from "../metrics/registry.js";
import { migrateStorageVersion, StorageMigrationError } from "../migration/index.js";
import { createWebhookServer, type HttpsWebhookServer } from "./index.js";

const CRD_NAME = "gadgets.toys.kbts.dev";
const NS = "default";

const alpha = (name: string, color: string, annotations?: Record<string, string>): V1alpha1 => ({
  apiVersion: "toys.kbts.dev/v1alpha1",
  kind: "Gadget",
  metadata: { name, namespace: NS, ...(annotations ? { annotations } : {}) },
  spec: { replicas: 2, color },
});

async function errorsCounted(from: string, to: string): Promise<number> {
  const m = await metricsRegistry
    .getSingleMetric("controller_runtime_conversion_webhook_conversion_errors_total")
    ?.get();
  return (
    m?.values.find(
      (v) =>
        v.labels.group_kind === "Gadget.toys.kbts.dev" &&
        v.labels.from_version === from &&
        v.labels.to_version === to,
    )?.value ?? 0
  );
}

/** The apiVersion an object is encoded in inside etcd (its storage version), read over etcd's JSON gateway. */
async function storedAPIVersion(env: Environment, name: string): Promise<string> {
  const key = Buffer.from(`/registry/toys.kbts.dev/gadgets/${NS}/${name}`).toString("base64");
  const res = await fetch(`${env.etcdURL}/v3/kv/range`, { method: "POST", body: JSON.stringify({ key }) });
  const body = (await res.json()) as { kvs?: { value: string }[] };
  const value = body.kvs?.[0]?.value;
  if (!value) throw new Error(`etcd has no ${name}`);
  return (JSON.parse(Buffer.from(value, "base64").toString("utf8")) as KubernetesObject).apiVersion ?? "";
}

describe("CRD conversion served by the runtime's /convert to a real API server", () => {
  let env: Environment;
  let server: HttpsWebhookServer;
  let client: Client;
  const abort = new AbortController();
  let serving: Promise<void>;

  beforeAll(async () => {
    env = await startEnvironment({
      crds: [gadgetCRD("v1")],
      webhookInstallOptions: { conversions: [gadgetConverter] },
    });
    const w = env.webhookInstallOptions;
    if (!w) throw new Error("envtest did not prepare webhook serving");
    server = createWebhookServer({
      host: w.localServingHost,
      port: w.localServingPort,
      certDir: w.localServingCertDir,
    });
    webhookManagedBy({ getWebhookServer: () => server }, GadgetV1)
      .withConversion(gadgetV1alpha1Spoke, gadgetV2Spoke)
      .complete();
    serving = server.start(abort.signal);
    await server.started();
    client = createClient(env.kubeConfig);
  });

  afterAll(async () => {
    abort.abort();
    await serving;
    await env?.stop();
  });

  it("envtest points the CRD's conversion webhook at the local server with its CA", async () => {
    const crd = await client.get(CustomResourceDefinition, { name: CRD_NAME });
    const w = env.webhookInstallOptions;
    expect(crd.spec?.conversion).toEqual({
      strategy: "Webhook",
      webhook: {
        clientConfig: {
          url: `https://${w?.localServingHost}:${w?.localServingPort}/convert`,
          caBundle: Buffer.from(w?.caData ?? "").toString("base64"),
        },
        conversionReviewVersions: ["v1"],
      },
    });
  });

  it("writes as v1alpha1, reads as v1 and v2, writes back, and reads v1alpha1 unchanged", async () => {
    const original = alpha("round", "red", { "toys.kbts.dev/finish": "matte", note: "kept" });
    await eventually("the first conversion", () => client.create(GadgetV1alpha1, structuredClone(original)));

    const hub = await client.get(GadgetV1, { namespace: NS, name: "round" });
    expect(hub.apiVersion).toBe("toys.kbts.dev/v1");
    expect(hub.spec).toEqual({ replicas: 2, appearance: { color: "red", finish: "matte" } });
    expect(hub.metadata?.annotations).toEqual({ note: "kept" });

    const v2 = await client.get(GadgetV2, { namespace: NS, name: "round" });
    expect(v2.spec).toEqual({ replicas: 2, appearance: { colors: ["red"], finish: "matte" } });
    await client.update(GadgetV2, v2);

    const back = await client.get(GadgetV1alpha1, { namespace: NS, name: "round" });
    expect(back.spec).toEqual(original.spec);
    expect(back.metadata?.annotations).toEqual(original.metadata?.annotations);
  });

  it("keeps what only v2 can say through a v1alpha1 write", async () => {
    const v2: V2 = {
      apiVersion: "toys.kbts.dev/v2",
      kind: "Gadget",
      metadata: { name: "many", namespace: NS },
      spec: { replicas: 1, appearance: { colors: ["red", "green", "blue"], finish: "gloss" } },
    };
    await client.create(GadgetV2, v2);
    const old = await client.get(GadgetV1alpha1, { namespace: NS, name: "many" });
    expect(old.spec).toEqual({ replicas: 1, color: "red" });
    old.spec = { ...old.spec, replicas: 4 };
    await client.update(GadgetV1alpha1, old);
    expect((await client.get(GadgetV2, { namespace: NS, name: "many" })).spec).toEqual({
      replicas: 4,
      appearance: { colors: ["red", "green", "blue"], finish: "gloss" },
    });
  });

  it("serves every version to kubectl get", async () => {
    const kubectl = env.binaries?.kubectl;
    if (!kubectl) throw new Error("kubectl is not in KUBEBUILDER_ASSETS; run setup-envtest use");
    for (const version of ["v1alpha1", "v1", "v2"]) {
      const { stdout } = await promisify(execFile)(kubectl, [
        "--kubeconfig",
        env.kubeconfigPath,
        "get",
        `gadgets.${version}.toys.kbts.dev`,
        "-n",
        NS,
        "-o",
        "json",
      ]);
      const items = (JSON.parse(stdout) as { items: KubernetesObject[] }).items;
      expect(items.map((i) => [i.metadata?.name, i.apiVersion])).toEqual([
        ["many", `toys.kbts.dev/${version}`],
        ["round", `toys.kbts.dev/${version}`],
      ]);
    }
  });

  it("turns a throwing conversion into a clear error at the API server, and counts it", async () => {
    const before = await errorsCounted("v1alpha1", "v1");
    const err = await client.create(GadgetV1alpha1, alpha("bad", "poison")).then(
      () => new Error("created"),
      (e: Error) => e,
    );
    expect(err.message).toContain(
      'converting Gadget.toys.kbts.dev default/bad from v1alpha1 to v1: v1alpha1 convertTo (to hub v1) threw: color "poison" cannot be converted',
    );
    expect(err.message).toMatch(/conversion webhook for toys\.kbts\.dev\/v1alpha1, Kind=Gadget failed/);
    expect(await errorsCounted("v1alpha1", "v1")).toBe(before + 1);
  });

  it("migrates every stored object to a new storage version, refusing while one cannot be converted", async () => {
    for (let i = 0; i < 5; i++) await client.create(GadgetV1alpha1, alpha(`page-${i}`, "teal"));
    // Stored as v1, it converts to v1alpha1 and v1 but not to v2.
    await client.create(GadgetV1, {
      apiVersion: "toys.kbts.dev/v1",
      kind: "Gadget",
      metadata: { name: "stuck", namespace: NS },
      spec: { appearance: { color: "poison" } },
    });
    expect(await storedAPIVersion(env, "page-0")).toBe("toys.kbts.dev/v1");

    const crd = await client.get(CustomResourceDefinition, { name: CRD_NAME });
    for (const v of crd.spec?.versions ?? []) v.storage = v.name === "v2";
    await client.update(CustomResourceDefinition, crd);
    await eventually("storedVersions to list v2", async () => {
      const s = (await client.get(CustomResourceDefinition, { name: CRD_NAME })).status?.storedVersions;
      return s?.includes("v2") ? s : undefined;
    });

    const failed = await migrateStorageVersion({
      kubeConfig: env.kubeConfig,
      crd: CRD_NAME,
      pageSize: 3,
    }).then(
      () => new Error("migrated"),
      (e: Error) => e,
    );
    expect(failed).toBeInstanceOf(StorageMigrationError);
    expect(failed.message).toContain(
      `migrating CRD ${CRD_NAME}: listing gadgets as v2 failed, so status.storedVersions is unchanged`,
    );
    expect(failed.message).toContain("converting Gadget.toys.kbts.dev default/stuck from v1 to v2");
    expect((await client.get(CustomResourceDefinition, { name: CRD_NAME })).status?.storedVersions).toEqual([
      "v1",
      "v2",
    ]);

    // Pages listed before the failing one were rewritten; the failing object is still stored as v1.
    const names = ["many", "page-0", "page-1", "page-2", "page-3", "page-4", "round", "stuck"];
    const storedBefore = await Promise.all(names.map((n) => storedAPIVersion(env, n)));
    expect(storedBefore[names.indexOf("stuck")]).toBe("toys.kbts.dev/v1");
    // The conversion code is fixed (and served again): now every object converts.
    poison.refused = false;
    const result = await migrateStorageVersion({
      kubeConfig: env.kubeConfig,
      crd: CRD_NAME,
      pageSize: 3,
    }).finally(() => {
      poison.refused = true;
    });
    expect(result).toEqual({
      crd: CRD_NAME,
      storageVersion: "v2",
      objects: 8,
      rewritten: storedBefore.filter((v) => v !== "toys.kbts.dev/v2").length,
      storedVersionsBefore: ["v1", "v2"],
      storedVersions: ["v2"],
    });
    expect((await client.get(CustomResourceDefinition, { name: CRD_NAME })).status?.storedVersions).toEqual([
      "v2",
    ]);
    expect(await Promise.all(names.map((n) => storedAPIVersion(env, n)))).toEqual(
      names.map(() => "toys.kbts.dev/v2"),
    );
    // Objects already in the storage version are read and written back without being re-encoded.
    const again = await migrateStorageVersion({ kubeConfig: env.kubeConfig, crd: CRD_NAME });
    expect([again.objects, again.rewritten]).toEqual([8, 0]);
  });
  it("make run points the CRD's conversion at the manager's own server on a local control plane, and restores it on stop", async () => {
    const before = (await client.get(CustomResourceDefinition, { name: CRD_NAME })).spec?.conversion;
    // The test's own server stops, so only the manager's can answer the conversions below.
    abort.abort();
    await serving;
    const mgr = createManager({
      kubeConfig: env.kubeConfig,
      metricsBindAddress: "0",
      healthProbeBindAddress: "0",
      logger: nopLogger(),
      webhookServer: { port: 0 },
    });
    webhookManagedBy(mgr, GadgetV1).withConversion(gadgetV1alpha1Spoke, gadgetV2Spoke).complete();
    const stop = new AbortController();
    const running = mgr.start(stop.signal);
    try {
      const pointed = await eventually("the CRD to point at the manager", async () => {
        const crd = await client.get(CustomResourceDefinition, { name: CRD_NAME });
        const url = (crd.spec?.conversion as { webhook?: { clientConfig?: { url?: string } } } | undefined)
          ?.webhook?.clientConfig?.url;
        return url &&
          url !==
            (before as typeof crd.spec & { webhook: { clientConfig: { url: string } } }).webhook.clientConfig
              .url
          ? crd
          : undefined;
      });
      expect(pointed.metadata?.annotations?.["kbts.dev/conversion-before-local-run"]).toBe(
        JSON.stringify(before),
      );
      const read = await eventually("a read converted by the manager", () =>
        client.get(GadgetV1alpha1, { namespace: NS, name: "round" }),
      );
      expect(read.spec).toEqual({ replicas: 2, color: "red" });
    } finally {
      stop.abort();
      await running;
    }
    const restored = await client.get(CustomResourceDefinition, { name: CRD_NAME });
    expect(restored.spec?.conversion).toEqual(before);
    expect(restored.metadata?.annotations?.["kbts.dev/conversion-before-local-run"]).toBeUndefined();
  });
});
