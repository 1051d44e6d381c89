import { describe, expect, it } from "vitest";
import type { Kind } from "../api/kind.js";
import { ConfigMap } from "../api/kinds.js";
import { OwnWrites, type ResourceVersionWaiter } from "./own-writes.js";
import type { ObjectKey } from "./types.js";

/** A cache stand-in that records what a list waits on and says every wait is reached. */
function recordingWaiter() {
  const byKey: string[] = [];
  const byProgress: string[] = [];
  const waiter: ResourceVersionWaiter = {
    async waitForResourceVersion(_kind: Kind, key: ObjectKey, rv: string) {
      byKey.push(`${key.namespace}/${key.name}@${rv}`);
      return true;
    },
    async waitForWatchProgress(
      _kind: Kind,
      newest: ReadonlyMap<string, string>,
      namespace: string | undefined,
    ) {
      byProgress.push(`${namespace ?? "*"} ${[...newest].map(([ns, rv]) => `${ns}@${rv}`).join(",")}`);
      return true;
    },
  };
  return { waiter, byKey, byProgress };
}

describe("OwnWrites.beforeList", () => {
  it("waits once on progress past each namespace's newest write, and by key only for undecimal versions", async () => {
    const writes = new OwnWrites();
    writes.record(ConfigMap, { namespace: "a", name: "x" }, "5");
    writes.record(ConfigMap, { namespace: "a", name: "y" }, "7");
    writes.record(ConfigMap, { namespace: "b", name: "z" }, "6");
    writes.record(ConfigMap, { namespace: "b", name: "q" }, "opaque-1");
    const { waiter, byKey, byProgress } = recordingWaiter();
    await Promise.all([
      writes.beforeList(ConfigMap, undefined, waiter, 1000),
      writes.beforeList(ConfigMap, undefined, waiter, 1000),
    ]);
    expect(byProgress).toEqual(["* a@7,b@6"]);
    expect(byKey).toEqual(["b/q@opaque-1"]);
    // Reached: the decimal writes are settled; the undecimal one too, by its own wait.
    expect(writes.size).toBe(0);

    // An undecimal write replaced by a decimal one is no longer waited on by key.
    writes.record(ConfigMap, { namespace: "b", name: "q" }, "opaque-2");
    writes.record(ConfigMap, { namespace: "b", name: "q" }, "9");
    byKey.length = 0;
    byProgress.length = 0;
    await writes.beforeList(ConfigMap, "b", waiter, 1000);
    expect(byKey).toEqual([]);
    expect(byProgress).toEqual(["b b@9"]);
  });

  it("waits on every write by key when the cache cannot wait on progress", async () => {
    const writes = new OwnWrites();
    writes.record(ConfigMap, { namespace: "a", name: "x" }, "5");
    writes.record(ConfigMap, { namespace: "a", name: "y" }, "7");
    const { waiter, byKey } = recordingWaiter();
    const keyOnly: ResourceVersionWaiter = { waitForResourceVersion: waiter.waitForResourceVersion };
    await writes.beforeList(ConfigMap, "a", keyOnly, 1000);
    expect(byKey).toEqual(["a/x@5", "a/y@7"]);
  });
});
