// A kube-apiserver with the WatchList feature gate off refuses a streamed initial state (422): the
// reflector says so once, lists in pages from then on, and the cache works as usual (issue 30, item 2).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Namespace } from "../api/kinds.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import type { Logger } from "../log/types.js";
import { createCache } from "./cache.js";

let env: Environment;
let direct: Client;
const stop = new AbortController();

beforeAll(async () => {
  env = await startEnvironment({ apiServerFlags: { "feature-gates": "WatchList=false" } });
  direct = createClient(env.kubeConfig);
}, 120_000);

afterAll(async () => {
  stop.abort();
  await env?.stop();
});

describe("a server without WatchList", () => {
  it("is listed in pages after its one refusal, and its events still arrive", async () => {
    const ns = "no-watchlist";
    await direct.create(Namespace, { metadata: { name: ns } });
    await direct.create(ConfigMap, { metadata: { name: "first", namespace: ns } });
    const said: string[] = [];
    const logger: Logger = {
      info: (_fields: unknown, msg?: string) => void said.push(msg ?? ""),
      warn: () => {},
      debug: () => {},
      error: () => {},
      child: () => logger,
    };
    const cache = createCache(env.kubeConfig, { logger, namespaces: [ns] });
    void cache.start(stop.signal);
    expect((await cache.list(ConfigMap, { namespace: ns })).map((c) => c.metadata?.name)).toEqual(["first"]);
    const reflector = cache.peekInformer(ConfigMap)!.reflectors[0]!;
    expect(reflector.stats).toMatchObject({ lists: 1, streamedLists: 0 });
    expect(said).toContain("the API server does not stream lists (WatchList); listing in pages");

    await direct.create(ConfigMap, { metadata: { name: "second", namespace: ns } });
    await eventually(async () =>
      expect((await cache.list(ConfigMap, { namespace: ns })).map((c) => c.metadata?.name).sort()).toEqual([
        "first",
        "second",
      ]),
    );
  }, 60_000);
});
