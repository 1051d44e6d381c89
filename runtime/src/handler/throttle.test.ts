import { describe, expect, it } from "vitest";
import type { KubernetesObject } from "../api/meta.js";
import type { Request } from "../reconcile/types.js";
import { createRateLimitingQueue } from "../workqueue/queue.js";
import { enqueueRequestsFromMapFunc, LowPriority } from "./enqueue.js";
import { throttled } from "./throttle.js";
import type { RequestQueue } from "./types.js";

const pod = (name: string): KubernetesObject => ({
  metadata: { name, namespace: "ns", resourceVersion: "1" },
});
/** Every pod of the namespace maps to its one budget, as a quota-like controller's pods do. */
const toBudget = enqueueRequestsFromMapFunc(() => [{ namespace: "ns", name: "budget" }]);

/** A queue that records what it was asked: at once, or after how long. */
function recorder() {
  const calls: string[] = [];
  const q: RequestQueue = {
    add: (r, o) => calls.push(`add ${r.name}${o?.priority === undefined ? "" : ` p${o.priority}`}`),
    addAfter: (r, ms) => calls.push(`after ${ms} ${r.name}`),
    addRateLimited: (r) => calls.push(`limited ${r.name}`),
  };
  return { q, calls };
}

describe("throttled", () => {
  it("enqueues at once while the burst lasts, then one reconcile per token, events in between folded in", async () => {
    let t = 1000;
    // 5 a second: a token every 200 ms; 2 at once after a quiet spell.
    const h = throttled(toBudget, { perSecond: 5, burst: 2, now: () => t });
    const { q, calls } = recorder();
    await h.create({ object: pod("a"), isInInitialList: false }, q);
    t = 1010;
    await h.update(
      {
        objectOld: pod("a"),
        objectNew: { ...pod("a"), metadata: { ...pod("a").metadata, resourceVersion: "2" } },
      },
      q,
    );
    // The burst is spent (0.1 token): due when the bucket is back at zero, 180 ms on.
    t = 1020;
    await h.delete({ object: pod("b"), deleteStateUnknown: false }, q);
    // Until then every event folds into that reconcile.
    t = 1199;
    await h.create({ object: pod("c"), isInInitialList: false }, q);
    // After it is due, the next waits for the next token.
    t = 1210;
    await h.create({ object: pod("d"), isInInitialList: false }, q);
    // Quiet for long enough to refill the burst: at once again, twice.
    t = 2000;
    await h.generic({ object: pod("e") }, q);
    await h.generic({ object: pod("f") }, q);
    expect(calls).toEqual([
      "add budget",
      "add budget",
      "after 180 budget",
      "after 1 budget",
      "after 190 budget",
      "add budget",
      "add budget",
    ]);
  });

  it("keeps requests apart, passes the priority on, and leaves addAfter and addRateLimited alone", async () => {
    const t = 0;
    const perPod = enqueueRequestsFromMapFunc((o: KubernetesObject) => [
      { namespace: "ns", name: o.metadata?.name ?? "" },
    ]);
    const h = throttled(perPod, { perSecond: 10, burst: 1, now: () => t });
    const { q, calls } = recorder();
    await h.create({ object: pod("a"), isInInitialList: true }, q);
    await h.create({ object: pod("b"), isInInitialList: false }, q);
    await h.create({ object: pod("a"), isInInitialList: true }, q);
    const direct = throttled<KubernetesObject>(
      {
        create: (_e, queue) => {
          queue.addAfter({ name: "x" }, 5);
          queue.addRateLimited({ name: "x" });
        },
        update: () => {},
        delete: () => {},
        generic: () => {},
      },
      { perSecond: 10, burst: 1, now: () => t },
    );
    await direct.create({ object: pod("x"), isInInitialList: false }, q);
    expect(calls).toEqual([`add a p${LowPriority}`, "add b", "after 100 a", "after 5 x", "limited x"]);
  });

  it("refuses a rate or burst that could never enqueue", () => {
    expect(() => throttled(toBudget, { perSecond: 0, burst: 1 })).toThrow(
      /perSecond must be above 0 .* got 0 and 1/,
    );
    expect(() => throttled(toBudget, { perSecond: 5, burst: 0.5 })).toThrow(
      /burst at least 1, got 5 and 0.5/,
    );
  });

  it("on a real work queue, folds the events past the burst into one reconcile a token later", async () => {
    const queue = createRateLimitingQueue<Request>();
    const h = throttled(toBudget, { perSecond: 1000 / 150, burst: 1 });
    const event = (i: number) => h.create({ object: pod(`p${i}`), isInInitialList: false }, queue);
    await event(0);
    const first = await queue.get();
    expect(first?.item).toEqual({ namespace: "ns", name: "budget" });
    const started = performance.now();
    for (let i = 1; i < 50; i++) await event(i);
    queue.done(first?.item as Request);
    expect(queue.len()).toBe(0);
    const second = await queue.get();
    expect(second?.item).toEqual({ namespace: "ns", name: "budget" });
    expect(performance.now() - started).toBeGreaterThan(100);
    queue.done(second?.item as Request);
    expect(queue.len()).toBe(0);
    queue.shutdown();
  });
});
