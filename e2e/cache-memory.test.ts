/**
 * Issue 17, feature 1: cache memory that is safe by default and visible, on a real kube-apiserver.
 * One control plane for the file; a manager with a metadata-only Pod watch and per-kind cache
 * scoping, its /metrics scraped over HTTP, and bare caches for the Secrets warning.
 */
import {
  type Client,
  ConfigMap,
  controllerManagedBy,
  createCache,
  createClient,
  createManager,
  enqueueRequestsFromMapFunc,
  type Logger,
  type Manager,
  metadataOnly,
  Namespace,
  type PartialObjectMetadata,
  Pod,
  type Request,
  Secret,
} from "@kbts/runtime";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./support/eventually.js";

let env: Environment;
let direct: Client;
const stops: AbortController[] = [];

/** A logger that keeps every warning (message and fields) and drops the rest. */
function capturingLogger(): { logger: Logger; warnings: { msg: string; kind?: unknown }[] } {
  const warnings: { msg: string; kind?: unknown }[] = [];
  const logger: Logger = {
    info: () => {},
    debug: () => {},
    error: () => {},
    warn: (obj: Record<string, unknown> | string, msg?: string) => {
      if (typeof obj === "string") warnings.push({ msg: obj });
      else warnings.push({ msg: msg ?? "", kind: obj.kind });
    },
    child: () => logger,
  };
  return { logger, warnings };
}

function run(mgr: Manager): void {
  const stop = new AbortController();
  stops.push(stop);
  // lint-tests: allow swallowed-error — a background manager, stopped at teardown: the test's waits fail if it dies
  mgr.start(stop.signal).catch(() => {});
}

/** A pod with a realistic spec: what a full informer holds and a metadata-only one must not. */
const bigPod = (namespace: string, name: string): Pod => ({
  metadata: { namespace, name, labels: { app: "trigger" } },
  spec: {
    containers: [
      {
        name: "main",
        image: "registry.example.com/team/app:1.2.3",
        command: ["/bin/app", "--serve", "--port=8080"],
        env: Array.from({ length: 20 }, (_, i) => ({
          name: `SETTING_${i}`,
          value: `value-${i}-${"x".repeat(40)}`,
        })),
      },
    ],
  },
});

/** The value of one series in a Prometheus text exposition, or undefined when it is absent. */
function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.indexOf("}"));
    if (want.every((w) => body.split(",").includes(w))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

beforeAll(async () => {
  env = await startEnvironment();
  direct = createClient(env.kubeConfig);
  for (const name of ["mem-a", "mem-b", "mem-c"]) await direct.create(Namespace, { metadata: { name } });
});

afterAll(async () => {
  for (const s of stops) s.abort();
  await env?.stop();
});

describe("a manager with a metadata-only Pod watch and scoped ConfigMaps and Secrets", () => {
  let mgr: Manager;
  let warnings: { msg: string; kind?: unknown }[];
  const reconciled: Request[] = [];
  const seenByReconciler: PartialObjectMetadata[] = [];
  let metricsText: () => Promise<string>;

  beforeAll(async () => {
    const captured = capturingLogger();
    warnings = captured.warnings;
    mgr = createManager({
      kubeConfig: env.kubeConfig,
      logger: captured.logger,
      metricsBindAddress: "127.0.0.1:0",
      healthProbeBindAddress: "0",
      cache: {
        byObject: {
          "v1/Secret": { namespaces: ["mem-a"] },
          "v1/ConfigMap": { labelSelector: "keep=yes", fieldSelector: "metadata.name!=cm-excluded" },
        },
      },
    });
    const client = mgr.getClient();
    controllerManagedBy(mgr)
      .named("pod_trigger")
      .watches(
        Pod,
        enqueueRequestsFromMapFunc((pod: PartialObjectMetadata) => [
          { namespace: pod.metadata.namespace, name: pod.metadata.name ?? "" },
        ]),
        { metadataOnly: true },
      )
      .complete({
        reconcile: async (req) => {
          reconciled.push(req);
          try {
            seenByReconciler.push(await client.get(metadataOnly(Pod), req));
          } catch {
            // deleted meanwhile
          }
          return undefined;
        },
      });
    run(mgr);
    await eventually("the metrics server", async () => mgr.httpAddress("metrics"));
    metricsText = async () => {
      const res = await fetch(`http://127.0.0.1:${mgr.httpAddress("metrics")?.port}/metrics`);
      if (res.status !== 200) throw new Error(`GET /metrics: ${res.status}`);
      return res.text();
    };
  });

  it("reconciles on Pod events while its cache holds no pod spec", async () => {
    for (let i = 0; i < 4; i++) await direct.create(Pod, bigPod("mem-a", `p${i}`));
    await eventually("a reconcile per pod", async () =>
      ["p0", "p1", "p2", "p3"].every((n) => reconciled.some((r) => r.name === n)) ? true : undefined,
    );
    expect(seenByReconciler.length).toBeGreaterThanOrEqual(4);
    for (const p of seenByReconciler)
      expect(Object.keys(p).sort()).toEqual(["apiVersion", "kind", "metadata"]);

    const cache = mgr.getCache();
    const cached = await cache.list(metadataOnly(Pod), { namespace: "mem-a" });
    expect(cached.map((p) => p.metadata.name).sort()).toEqual(["p0", "p1", "p2", "p3"]);
    for (const p of cached) {
      expect(p).toMatchObject({ apiVersion: "v1", kind: "Pod" });
      expect(p).not.toHaveProperty("spec");
      expect(p).not.toHaveProperty("status");
    }
    // Only the metadata informer exists: nothing in this process holds a pod's spec.
    const text = await metricsText();
    expect(series(text, "kbts_cache_objects", { kind: "Pod", type: "metadata" })).toBe(4);
    expect(series(text, "kbts_cache_objects", { kind: "Pod", type: "full" })).toBeUndefined();
  });

  it("reports far fewer bytes for the metadata-only informer than for a full one of the same pods", async () => {
    // A full read of the kind starts the separate full informer, as in controller-runtime.
    await mgr.getClient().get(Pod, { namespace: "mem-a", name: "p0" });
    const text = await eventually("both Pod informers in /metrics", async () => {
      const t = await metricsText();
      return series(t, "kbts_cache_objects", { kind: "Pod", type: "full" }) === 4 ? t : undefined;
    });
    const meta = series(text, "kbts_cache_object_bytes", {
      group: "",
      version: "v1",
      kind: "Pod",
      type: "metadata",
    })!;
    const full = series(text, "kbts_cache_object_bytes", {
      group: "",
      version: "v1",
      kind: "Pod",
      type: "full",
    })!;
    console.log(
      `4 pods cached: metadata-only ${meta} bytes, full ${full} bytes (${(full / meta).toFixed(1)}x)`,
    );
    expect(meta).toBeGreaterThan(4 * 100);
    expect(full).toBeGreaterThan(3 * meta);
    // The byte gauge is the length of the stored objects' JSON, give or take escapes.
    const stored = await mgr.getCache().list(Pod, { namespace: "mem-a" });
    const json = stored.reduce((n, p) => n + JSON.stringify(p).length, 0);
    expect(Math.abs(full - json)).toBeLessThan(json * 0.02);
  });

  it("follows creates and deletes in the per-kind object gauge", async () => {
    const count = async () =>
      series(await metricsText(), "kbts_cache_objects", { kind: "Pod", type: "metadata" }) ?? Number.NaN;
    await direct.create(Pod, bigPod("mem-b", "p-extra"));
    await eventually("5 pods in the gauge", async () => ((await count()) === 5 ? true : undefined));
    await direct.delete(Pod, { namespace: "mem-a", name: "p0" }, { gracePeriodSeconds: 0 });
    await direct.delete(Pod, { namespace: "mem-a", name: "p1" }, { gracePeriodSeconds: 0 });
    await eventually("3 pods in the gauge", async () => ((await count()) === 3 ? true : undefined));
    expect((await mgr.getCache().list(metadataOnly(Pod))).length).toBe(3);
  });

  it("keeps out the ConfigMaps and Secrets its byObject scope excludes", async () => {
    await direct.create(ConfigMap, {
      metadata: { namespace: "mem-a", name: "cm-kept", labels: { keep: "yes" } },
    });
    await direct.create(ConfigMap, {
      metadata: { namespace: "mem-b", name: "cm-kept-b", labels: { keep: "yes" } },
    });
    await direct.create(ConfigMap, { metadata: { namespace: "mem-a", name: "cm-unlabelled" } });
    await direct.create(ConfigMap, {
      metadata: { namespace: "mem-a", name: "cm-excluded", labels: { keep: "yes" } },
    });
    for (const ns of ["mem-a", "mem-b"]) {
      await direct.create(Secret, { metadata: { namespace: ns, name: "s" }, stringData: { k: "v" } });
    }
    const client = mgr.getClient();
    const names = async () =>
      (await client.list(ConfigMap)).map((c) => `${c.metadata?.namespace}/${c.metadata?.name}`).sort();
    await eventually("the two kept ConfigMaps", async () =>
      (await names()).join() === "mem-a/cm-kept,mem-b/cm-kept-b" ? true : undefined,
    );
    const secrets = await client.list(Secret, { namespace: "mem-a" });
    expect(secrets.map((s) => s.metadata?.name)).toEqual(["s"]);
    await expect(client.get(Secret, { namespace: "mem-b", name: "s" })).rejects.toThrow(
      /unknown namespace for the cache \(it watches Secret in mem-a\)/,
    );
    const text = await metricsText();
    expect(series(text, "kbts_cache_objects", { kind: "ConfigMap", type: "full" })).toBe(2);
    expect(series(text, "kbts_cache_objects", { kind: "Secret", type: "full" })).toBe(1);
    // Scoped Secrets, selected ConfigMaps: no warning about either.
    expect(warnings.filter((w) => /holds every/.test(w.msg))).toEqual([]);
  });
});

describe("the start-up warning about Secrets cached cluster-wide", () => {
  async function cacheReading(options: Parameters<typeof createCache>[1]) {
    const { logger, warnings } = capturingLogger();
    const cache = createCache(env.kubeConfig, { ...options, logger });
    const stop = new AbortController();
    stops.push(stop);
    void cache.start(stop.signal);
    await cache.list(Secret, { namespace: "mem-a" });
    await cache.list(Secret, { namespace: "mem-a" });
    return warnings.filter((w) => /holds every/.test(w.msg));
  }

  it("is logged once, naming the kind and the fixes, when Secrets are cached cluster-wide", async () => {
    const warned = await cacheReading({});
    expect(warned).toHaveLength(1);
    expect(warned[0]?.kind).toBe("Secret");
    expect(warned[0]?.msg).toMatch(/holds every Secret in the cluster/);
    expect(warned[0]?.msg).toContain('byObject["v1/Secret"]');
    expect(warned[0]?.msg).toContain("metadataOnly");
    expect(warned[0]?.msg).toContain("transform");
  });

  it("is not logged when Secrets are scoped by namespace, label or field, or watched metadata-only", async () => {
    expect(await cacheReading({ byObject: { "v1/Secret": { namespaces: ["mem-a"] } } })).toEqual([]);
    expect(await cacheReading({ byObject: { "v1/Secret": { labelSelector: "app=x" } } })).toEqual([]);
    expect(await cacheReading({ byObject: { "v1/Secret": { fieldSelector: "type=Opaque" } } })).toEqual([]);
    const { logger, warnings } = capturingLogger();
    const cache = createCache(env.kubeConfig, { logger });
    const stop = new AbortController();
    stops.push(stop);
    void cache.start(stop.signal);
    await cache.list(metadataOnly(Secret));
    expect(warnings).toEqual([]);
  });
});
