import { describe, expect, it } from "vitest";
import { CallLimiter } from "./call-limiter.js";

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((r) => setImmediate(r));

describe("CallLimiter", () => {
  it("holds calls beyond max pending promises and runs them in order as slots free", async () => {
    const limiter = new CallLimiter(2);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => deferred());
    for (const [i, g] of gates.entries()) {
      limiter.run(() => {
        started.push(i);
        return g.promise;
      });
    }
    expect(started).toEqual([0, 1]);
    expect(limiter.backlog).toBe(3);
    gates[1]?.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.resolve();
    gates[2]?.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.backlog).toBe(0);
  });

  it("runs calls that return no promise without holding a slot, and in order behind a backlog", async () => {
    const limiter = new CallLimiter(1);
    const order: string[] = [];
    limiter.run(() => void order.push("sync-1"));
    limiter.run(() => void order.push("sync-2"));
    expect(order).toEqual(["sync-1", "sync-2"]);
    const gate = deferred();
    limiter.run(() => {
      order.push("slow");
      return gate.promise;
    });
    limiter.run(() => void order.push("sync-3"));
    expect(order).toEqual(["sync-1", "sync-2", "slow"]);
    gate.resolve();
    await settle();
    expect(order).toEqual(["sync-1", "sync-2", "slow", "sync-3"]);
  });

  it("frees the slot of a call whose promise rejects", async () => {
    const limiter = new CallLimiter(1);
    const gate = deferred();
    let ran = false;
    limiter.run(() => gate.promise);
    limiter.run(() => {
      ran = true;
    });
    gate.reject(new Error("boom"));
    await settle();
    expect(ran).toBe(true);
  });

  it("drains a long backlog of synchronous calls without recursion", async () => {
    const limiter = new CallLimiter(1);
    const gate = deferred();
    limiter.run(() => gate.promise);
    let ran = 0;
    for (let i = 0; i < 100_000; i++) limiter.run(() => void ran++);
    gate.resolve();
    await settle();
    expect(ran).toBe(100_000);
    expect(limiter.backlog).toBe(0);
  });

  it("refuses a max below one", () => {
    expect(() => new CallLimiter(0)).toThrow("max must be at least 1");
  });
});
