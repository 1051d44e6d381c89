import { describe, expect, it } from "vitest";
import { metricsRegistry } from "../metrics/registry.js";
import { createRateLimitingQueue } from "./queue.js";
import { exponentialFailureRateLimiter } from "./ratelimiter.js";

/** Resolves with the next item, or "none" if nothing is handed out within ms. */
async function getWithin<T>(q: { get(): Promise<{ item: T } | undefined> }, ms: number) {
  const timer = new Promise<"none">((r) => setTimeout(() => r("none"), ms));
  const got = await Promise.race([q.get(), timer]);
  return got === "none" ? "none" : got?.item;
}

describe("createRateLimitingQueue", () => {
  it("deduplicates keys that are waiting", async () => {
    const q = createRateLimitingQueue<string>();
    q.add("a");
    q.add("a");
    q.add("b");
    q.add("a");
    expect(q.len()).toBe(2);
    expect((await q.get())?.item).toBe("a");
    expect((await q.get())?.item).toBe("b");
    expect(q.len()).toBe(0);
    q.shutdown();
  });

  it("keys Requests by namespace/name", async () => {
    const q = createRateLimitingQueue();
    q.add({ namespace: "ns", name: "x" });
    q.add({ name: "x", namespace: "ns" });
    q.add({ name: "x" });
    expect(q.len()).toBe(2);
    q.shutdown();
  });

  it("never hands out a key that is being processed; a re-add runs again after done", async () => {
    const q = createRateLimitingQueue<string>();
    q.add("a");
    const first = await q.get();
    expect(first?.item).toBe("a");
    q.add("a"); // changed while a worker holds it
    q.add("b");
    expect((await q.get())?.item).toBe("b");
    let handedOut: string | undefined;
    const waiting = q.get().then((g) => {
      handedOut = g?.item;
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(handedOut).toBeUndefined(); // "a" is still processing
    q.done("a");
    await waiting;
    expect(handedOut).toBe("a");
    q.done("a");
    q.done("b");
    expect(q.len()).toBe(0); // the two adds of "a" collapsed into one
    q.shutdown();
  });

  it("addAfter: the earliest ready time wins, an add makes it ready now", async () => {
    const q = createRateLimitingQueue<string>();
    const t0 = Date.now();
    q.addAfter("a", 5_000);
    q.addAfter("a", 30);
    expect(q.len()).toBe(0);
    expect(await getWithin(q, 2_000)).toBe("a");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
    q.done("a");

    q.addAfter("b", 30);
    q.addAfter("b", 5_000); // later: ignored
    expect(await getWithin(q, 2_000)).toBe("b");
    q.done("b");

    q.addAfter("c", 5_000);
    q.add("c");
    expect(q.len()).toBe(1);
    expect(await getWithin(q, 20)).toBe("c");
    q.shutdown();
  });

  it("addRateLimited backs off per item and forget resets the backoff", async () => {
    const q = createRateLimitingQueue<string>({ rateLimiter: exponentialFailureRateLimiter(20, 1_000) });
    q.addRateLimited("a");
    expect(q.numRequeues("a")).toBe(1);
    expect(q.len()).toBe(0);
    expect(await getWithin(q, 1_000)).toBe("a");
    q.done("a");
    q.addRateLimited("a"); // 40 ms now
    expect(q.numRequeues("a")).toBe(2);
    const t0 = Date.now();
    expect(await getWithin(q, 1_000)).toBe("a");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(35);
    q.done("a");
    q.forget("a");
    expect(q.numRequeues("a")).toBe(0);
    q.shutdown();
  });

  it("hands out higher priorities first, FIFO within a level; raising a priority wins", async () => {
    const q = createRateLimitingQueue<string>();
    q.add("low1", { priority: -100 });
    q.add("low2", { priority: -100 });
    q.add("normal");
    q.add("low2", { priority: 0 }); // raised: goes to the end of level 0
    const order = [];
    for (let i = 0; i < 3; i++) {
      const got = await q.get();
      order.push(got?.item);
    }
    expect(order).toEqual(["normal", "low2", "low1"]);
    q.shutdown();
  });

  it("shutdown releases waiting getters; shutdownWithDrain waits for done", async () => {
    const q = createRateLimitingQueue<string>();
    q.add("a");
    await q.get();
    const pending = q.get();
    let drained = false;
    const drain = q.shutdownWithDrain().then(() => {
      drained = true;
    });
    expect(await pending).toBeUndefined();
    expect(q.shuttingDown()).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(drained).toBe(false);
    q.done("a");
    await drain;
    expect(drained).toBe(true);
    q.add("b"); // ignored after shutdown
    expect(await q.get()).toBeUndefined();
  });

  it("records workqueue_* series with name and controller labels", async () => {
    const q = createRateLimitingQueue<string>({ name: "wq-metrics-test" });
    q.add("a");
    q.addAfter("b", 10);
    const got = await q.get();
    q.done(got?.item ?? "");
    const text = await metricsRegistry.metrics();
    const l = 'name="wq-metrics-test",controller="wq-metrics-test"';
    expect(text).toContain(`workqueue_adds_total{${l}} 1`);
    expect(text).toContain(`workqueue_retries_total{${l}} 1`);
    expect(text).toContain(`workqueue_depth{${l},priority="0"} 0`);
    expect(text).toContain(`workqueue_queue_duration_seconds_bucket{le="1e-8",${l}}`);
    expect(text).toContain(`workqueue_work_duration_seconds_bucket{le="1000",${l}}`);
    expect(text).toContain(`workqueue_work_duration_seconds_count{${l}} 1`);
    expect(text).toMatch(new RegExp(`workqueue_unfinished_work_seconds\\{${l}\\} 0`));
    expect(text).toMatch(new RegExp(`workqueue_longest_running_processor_seconds\\{${l}\\} 0`));
    q.shutdown();
  });
});
