import { describe, expect, it } from "vitest";
import type { Kind } from "../api/kind.js";
import { ConfigMap, Namespace } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import { webhookManagedBy } from "../builder/webhook.js";
import { listSequence } from "../cache/reflector.js";
import type { ByObject, Cache } from "../cache/types.js";
import { notFound } from "../client/errors.js";
import type { Client, Patch } from "../client/types.js";
import { unreachableKubeConfig } from "../internal/testdata/kubeconfig.js";
import { nopLogger } from "../log/logger.js";
import { createManager } from "../manager/manager.js";
import type { ReconcileContext } from "../reconcile/types.js";
import { fnv1a64, type HashRange } from "./ranges.js";
import { Shard, type ShardingOptions } from "./shard.js";

function shard(options: Partial<ShardingOptions> = {}, byObject: Record<string, ByObject> = {}) {
  const cacheOptions = { byObject };
  const s = new Shard(
    { ring: "gpubudget", identity: "shard-a", ...options },
    { kubeConfig: unreachableKubeConfig(), cacheOptions, defaultNamespace: "default", logger: nopLogger() },
  );
  return { s, cacheOptions };
}

const context = { log: nopLogger() } as unknown as ReconcileContext;

/** A shard bound to a cache holding `obj` and a client recording its patches. */
function bound(obj: KubernetesObject | undefined) {
  const { s } = shard();
  const patches: Patch[] = [];
  const cache = {
    get: async () => {
      if (!obj) throw notFound("configmaps", "x");
      return obj;
    },
  } as unknown as Cache;
  const client = {
    patch: async (_k: unknown, o: KubernetesObject, p: Patch) => {
      patches.push(p);
      return o;
    },
  } as unknown as Client;
  s.bind(cache, client);
  const reconciled: string[] = [];
  s.shardKind(ConfigMap);
  const r = s.reconciler(ConfigMap, {
    reconcile: async (req) => {
      reconciled.push(req.name);
    },
  });
  return { r, patches, reconciled };
}

const cm = (labels: Record<string, string>): KubernetesObject => ({
  metadata: { name: "x", namespace: "team", resourceVersion: "7", labels },
});

describe("a sharded manager's options", () => {
  it("refuses leader election beside sharding", () =>
    expect(() =>
      createManager({
        kubeConfig: unreachableKubeConfig(),
        leaderElection: true,
        leaderElectionID: "x",
        sharding: { ring: "r", identity: "a" },
        logger: nopLogger(),
      }),
    ).toThrow("leaderElection and sharding exclude each other"));

  it("refuses a ring name that cannot be part of a label key", () =>
    expect(() => shard({ ring: "GPU_Budget" })).toThrow(
      'sharding.ring "GPU_Budget" is not a DNS label (lowercase letters, digits and "-", at most 63 characters): it becomes part of the label key shard.alpha.sharding.timebertt.dev/GPU_Budget',
    ));

  it("refuses an identity that cannot be a Lease name and a label value", () =>
    expect(() => shard({ identity: "Pod.1" })).toThrow('sharding.identity "Pod.1" is not a DNS label'));

  it("refuses an unknown key or mechanism", () => {
    expect(() => shard({ key: "name" as "uid" })).toThrow(
      'sharding.key "name" is unknown; use "namespace" or "uid"',
    );
    expect(() => shard({ mechanism: "x" as "label" })).toThrow('sharding.mechanism "x" is unknown');
  });
});

describe("a sharded kind", () => {
  it("is cached by its own selector and this member's shard label", () => {
    const { s, cacheOptions } = shard({}, { "v1/ConfigMap": { labelSelector: "app=sharded" } });
    s.shardKind(ConfigMap);
    expect(cacheOptions.byObject["v1/ConfigMap"]?.labelSelector).toBe(
      "app=sharded,shard.alpha.sharding.timebertt.dev/gpubudget=shard-a",
    );
  });

  it("is cached by the API server's shard selector with the shardSelector mechanism, serving nothing at first", () => {
    const { s, cacheOptions } = shard({ mechanism: "shardSelector", key: "uid" });
    s.shardKind(ConfigMap);
    expect(cacheOptions.byObject["v1/ConfigMap"]?.labelSelector).toBeUndefined();
    expect(cacheOptions.byObject["v1/ConfigMap"]?.shardSelector?.()).toBe(
      "shardRange(object.metadata.uid, '0x0000000000000000', '0x0000000000000001')",
    );
  });
});

describe("a cluster-scoped kind keyed by namespace, with the shardSelector mechanism", () => {
  // shardSelector hashes a namespace field that a Namespace does not have: filtered by it, every
  // Namespace would go to the one member serving the hash of "".
  it("is cached whole and reconciled by the member serving its name's hash", async () => {
    const { s, cacheOptions } = shard({ mechanism: "shardSelector" });
    s.shardKind(Namespace);
    s.shardKind(ConfigMap);
    expect(cacheOptions.byObject["v1/Namespace"]?.shardSelector).toBeUndefined();
    expect(cacheOptions.byObject["v1/ConfigMap"]?.shardSelector?.()).toContain("object.metadata.namespace");
    const mine = fnv1a64("team-a");
    (s as unknown as { serving: HashRange[] }).serving = [[mine, mine + 1n]];
    const names = ["team-a", "team-b"];
    s.bind(
      {
        get: async (_k: unknown, key: { name: string }) => ({ metadata: { name: key.name } }),
      } as unknown as Cache,
      {} as Client,
    );
    const reconciled: string[] = [];
    const r = s.reconciler(Namespace, { reconcile: async (req) => void reconciled.push(req.name) });
    for (const name of names) await r.reconcile({ name }, context);
    expect(reconciled).toEqual(["team-a"]);
  });
});

describe("a sharded reconciler", () => {
  it("reconciles an object labelled for this member", async () => {
    const { r, reconciled, patches } = bound(
      cm({ "shard.alpha.sharding.timebertt.dev/gpubudget": "shard-a" }),
    );
    await r.reconcile({ namespace: "team", name: "x" }, context);
    expect(reconciled).toEqual(["x"]);
    expect(patches).toEqual([]);
  });

  it("skips an object labelled for another member, or gone from its cache", async () => {
    for (const obj of [
      cm({ "shard.alpha.sharding.timebertt.dev/gpubudget": "shard-b" }),
      cm({}),
      undefined,
    ]) {
      const { r, reconciled } = bound(obj);
      await r.reconcile({ namespace: "team", name: "x" }, context);
      expect(reconciled).toEqual([]);
    }
  });

  it("hands a draining object back instead of reconciling it, on the version it read", async () => {
    const { r, reconciled, patches } = bound(
      cm({
        "shard.alpha.sharding.timebertt.dev/gpubudget": "shard-a",
        "drain.alpha.sharding.timebertt.dev/gpubudget": "true",
      }),
    );
    await r.reconcile({ namespace: "team", name: "x" }, context);
    expect(reconciled).toEqual([]);
    expect(patches).toEqual([
      {
        type: "merge",
        data: {
          metadata: {
            resourceVersion: "7",
            labels: {
              "shard.alpha.sharding.timebertt.dev/gpubudget": null,
              "drain.alpha.sharding.timebertt.dev/gpubudget": null,
            },
          },
        },
      },
    ]);
  });
});

describe("a webhook forwarding to the shard owner", () => {
  const validator = {
    validateCreate: async () => undefined,
    validateUpdate: async () => undefined,
    validateDelete: async () => undefined,
  };
  const manager = (sharding?: ShardingOptions) =>
    createManager({ kubeConfig: unreachableKubeConfig(), sharding, logger: nopLogger() });

  it("needs the ring keyed by namespace, and says which option to change", () => {
    const mgr = manager({ ring: "r", identity: "a", key: "uid" });
    expect(() => webhookManagedBy(mgr, ConfigMap).withValidator(validator).forwardToShardOwner()).toThrow(
      'webhookManagedBy(ConfigMap).forwardToShardOwner(): the manager\'s sharding.key is "uid", but forwarding finds the owner of the request\'s namespace; set sharding.key "namespace"',
    );
  });

  it("registers the webhook as usual without sharding", () => {
    const mgr = manager();
    expect(
      webhookManagedBy(mgr, ConfigMap).withValidator(validator).forwardToShardOwner().complete(),
    ).toEqual({
      validatePath: "/validate--v1-configmap",
    });
  });

  it("refuses a webhook address that is not host:port", () => {
    expect(() => shard({ webhookAddress: "10.0.0.7" })).toThrow(/sharding.webhookAddress "10.0.0.7"/);
  });

  it("answers from its cache only once every sharded informer has listed since its ranges changed", () => {
    const { s } = shard({ key: "namespace", mechanism: "shardSelector" });
    s.shardKind(ConfigMap);
    const reflector = { stats: { lastListSeq: listSequence() } };
    const informer = { reflectors: [reflector], store: { size: 0 } };
    const cache = { peekInformer: (k: Kind) => (k.metadataOnly ? undefined : informer) };
    s.bind(cache as unknown as Cache, {} as Client);
    // What rebalanceRanges does on taking ranges up, once its Lease is held (private: reached around).
    const internals = s as unknown as { holding: boolean; setServing(ranges: HashRange[]): void };
    internals.holding = true;
    internals.setServing([[0n, 1n << 64n]]);
    expect(s.claims("team-a")).toBe(true);
    // The list in flight when the ranges changed used the old selector: the cache may lack the namespace.
    expect(s.readyFor("team-a")).toBe(false);
    reflector.stats.lastListSeq = listSequence() + 1; // a list begun after the change completed
    expect(s.readyFor("team-a")).toBe(true);
    internals.setServing([]);
    expect(s.readyFor("team-a")).toBe(false);
    expect(s.claims("team-a")).toBe(false);
  });

  it("is not ready for, nor knows an owner of, any namespace before it holds its Lease", () => {
    const { s } = shard({ key: "namespace", mechanism: "shardSelector" });
    expect(s.readyFor("team-a")).toBe(false);
    expect(s.claims("team-a")).toBe(false);
    expect(s.targetFor("team-a")).toBeUndefined();
  });
});
