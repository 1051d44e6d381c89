import { KubeConfig } from "@kubernetes/client-node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigMap } from "../api/kinds.js";
import { dropManagedFields, SharedInformer } from "../cache/informer.js";
import type { Cache } from "../cache/types.js";
import { RestClient } from "../client/rest.js";
import type { RequestQueue } from "../handler/types.js";
import { nopLogger } from "../log/logger.js";
import { kindSource } from "./source.js";

const kc = new KubeConfig();
kc.loadFromClusterAndUser({ name: "c", server: "https://127.0.0.1:1", skipTLSVerify: false }, { name: "u" });

/** A cache holding one informer that the test syncs by feeding its sink, as its reflector would. */
function oneInformerCache() {
  const informer = new SharedInformer({
    rest: new RestClient(kc),
    kind: ConfigMap,
    transform: dropManagedFields,
    syncPeriodMs: 0,
    logger: nopLogger(),
  });
  const cache = { getInformer: async () => informer } as unknown as Cache;
  return { informer, cache };
}

const handler = { create() {}, update() {}, delete() {}, generic() {} };
const queue = { add() {} } as unknown as RequestQueue;

describe("kindSource.waitForSync", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves true when the informer syncs, without polling on a timer", async () => {
    const { informer, cache } = oneInformerCache();
    const source = kindSource(cache, ConfigMap, handler);
    const ac = new AbortController();
    await source.start(queue, ac.signal, nopLogger());
    vi.useFakeTimers();
    let result: boolean | undefined;
    const waiting = source.waitForSync(ac.signal).then((ok) => {
      result = ok;
    });
    await vi.advanceTimersByTimeAsync(50);
    expect(vi.getTimerCount()).toBe(0);
    expect(result).toBeUndefined();
    informer.sink(undefined).replace([], "1");
    await waiting;
    expect(result).toBe(true);
  });

  it("resolves false when its signal aborts before the informer syncs", async () => {
    const { cache } = oneInformerCache();
    const source = kindSource(cache, ConfigMap, handler);
    const run = new AbortController();
    await source.start(queue, run.signal, nopLogger());
    const sync = new AbortController();
    const waiting = source.waitForSync(sync.signal);
    sync.abort();
    await expect(waiting).resolves.toBe(false);
  });

  it("resolves false when its signal aborts before the source starts", async () => {
    const { cache } = oneInformerCache();
    const source = kindSource(cache, ConfigMap, handler);
    const sync = new AbortController();
    const waiting = source.waitForSync(sync.signal);
    sync.abort();
    await expect(waiting).resolves.toBe(false);
  });
});
