import { describe, expect, it } from "vitest";
import { Event as EventKind } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import type { Client } from "../client/types.js";
import { createFakeClient } from "../fake/index.js";
import type { Logger } from "../log/types.js";
import { createEventRecorder } from "./index.js";

const pod: KubernetesObject = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p", namespace: "ns", uid: "u1", resourceVersion: "7" },
};

function capturingLogger(lines: string[]): Logger {
  const l: Logger = {
    info() {},
    warn() {},
    debug() {},
    error(a: unknown, b?: unknown) {
      lines.push(typeof a === "string" ? a : String(b));
    },
    child: () => l,
  };
  return l;
}

describe("event recorder", () => {
  it("writes a core/v1 Event with the object reference, source and timestamps", async () => {
    const c = createFakeClient();
    const r = createEventRecorder(c, "my-operator", undefined, { host: "h1" });
    r.event(pod, "Normal", "Created", "made it");
    await r.flush();
    const [e] = await c.list(EventKind, { namespace: "ns" });
    expect(e).toMatchObject({
      involvedObject: {
        apiVersion: "v1",
        kind: "Pod",
        name: "p",
        namespace: "ns",
        uid: "u1",
        resourceVersion: "7",
      },
      reason: "Created",
      message: "made it",
      type: "Normal",
      count: 1,
      source: { component: "my-operator", host: "h1" },
      reportingComponent: "my-operator",
    });
    expect(e?.metadata?.name).toMatch(/^p\.[0-9a-f]+$/);
    expect(e?.firstTimestamp).toBe(e?.lastTimestamp);
  });

  it("aggregates identical repeats into one Event with a count, and keeps different ones apart", async () => {
    const c = createFakeClient();
    const r = createEventRecorder(c, "op");
    for (let i = 0; i < 5; i++) r.event(pod, "Warning", "Failed", "boom");
    r.eventf(pod, "Warning", "Failed", "boom %d", 2);
    await r.flush();
    const events = await c.list(EventKind, { namespace: "ns" });
    expect(
      events.map((e) => [e.message, e.count]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ["boom", 5],
      ["boom 2", 1],
    ]);
  });

  it("starts a new Event after the window, and when the old one is gone", async () => {
    const c = createFakeClient();
    const r = createEventRecorder(c, "op", undefined, { aggregationWindowMs: 0 });
    r.event(pod, "Normal", "Tick", "t");
    await r.flush();
    await new Promise((res) => setTimeout(res, 5));
    r.event(pod, "Normal", "Tick", "t");
    await r.flush();
    expect(await c.list(EventKind)).toHaveLength(2);

    const r2 = createEventRecorder(c, "op2");
    r2.event(pod, "Normal", "Once", "o");
    await r2.flush();
    const first = (await c.list(EventKind)).find((e) => e.reason === "Once");
    await c.delete(EventKind, first as KubernetesObject);
    r2.event(pod, "Normal", "Once", "o");
    await r2.flush();
    expect((await c.list(EventKind)).filter((e) => e.reason === "Once").map((e) => e.count)).toEqual([1]);
  });

  it("drops events past client-go's per-object burst of 25 until the bucket refills", async () => {
    const c = createFakeClient();
    const r = createEventRecorder(c, "op");
    for (let i = 0; i < 40; i++) r.event(pod, "Warning", "Failed", "boom");
    r.event({ ...pod, metadata: { ...pod.metadata, name: "other", uid: "u2" } }, "Warning", "Failed", "boom");
    await r.flush();
    const counts = (await c.list(EventKind)).map((e) => [e.involvedObject.name, e.count]);
    expect(counts.sort()).toEqual([
      ["other", 1],
      ["p", 25],
    ]);
    const fast = createEventRecorder(c, "op2", undefined, { spamFilter: { burst: 2, refillMs: 20 } });
    const q = { ...pod, metadata: { ...pod.metadata, name: "q", uid: "u3" } };
    for (let i = 0; i < 5; i++) fast.event(q, "Normal", "Tick", "t");
    await fast.flush();
    await new Promise((res) => setTimeout(res, 50));
    fast.event(q, "Normal", "Tick", "t");
    await fast.flush();
    expect((await c.list(EventKind)).find((e) => e.involvedObject.name === "q")?.count).toBe(3);
  });

  it("puts events about cluster-scoped objects in the default namespace", async () => {
    const c = createFakeClient();
    const r = createEventRecorder(c, "op");
    r.event({ apiVersion: "v1", kind: "Namespace", metadata: { name: "team-a" } }, "Normal", "Seen", "x");
    await r.flush();
    expect(await c.list(EventKind, { namespace: "default" })).toHaveLength(1);
  });

  it("never throws into the caller: bad input and failing writes are logged", async () => {
    const lines: string[] = [];
    const failing = { create: () => Promise.reject(new Error("api down")) } as unknown as Client;
    const r = createEventRecorder(failing, "op", capturingLogger(lines));
    expect(() => r.event(pod, "Normal", "R", "m")).not.toThrow();
    expect(() => r.event(pod, "Bogus" as "Normal", "R", "m")).not.toThrow();
    expect(() => r.event({ metadata: { name: "x" } }, "Normal", "R", "m")).not.toThrow();
    await r.flush();
    expect(lines).toEqual([
      "event type must be Normal or Warning; event dropped",
      "event object needs apiVersion, kind and metadata.name; event dropped",
      "unable to write event",
    ]);
  });
});
