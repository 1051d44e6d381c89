import { describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { ObservedWrite } from "../client/own-writes.js";
import type { Logger } from "../log/types.js";
import { controllerRuntimeReconcileHotLoops } from "../metrics/controller.js";
import { fingerprint, HotLoopDetector, type WriteRecord, writeRecord } from "./hot-loop.js";

const Widget = defineKind<KubernetesObject>({
  group: "x.io",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});
const req = { namespace: "ns", name: "w" };

function recordingLogger(lines: { obj: unknown; msg: string }[]): Logger {
  const l = {
    warn: (obj: unknown, msg: string) => lines.push({ obj, msg }),
    child: () => l,
  };
  return new Proxy(l, { get: (t, p) => (p in t ? t[p as keyof typeof t] : () => {}) }) as unknown as Logger;
}

function statusWrite(status: unknown, rv: number, generation = 1): WriteRecord {
  const w: ObservedWrite = {
    kind: Widget,
    key: req,
    subresource: "status",
    verb: "update",
    body: { metadata: { name: "w", resourceVersion: String(rv - 1) }, status },
    resourceVersion: String(rv - 1),
  };
  return writeRecord(w, { metadata: { name: "w", resourceVersion: String(rv), generation } }, req, Widget);
}

async function hotLoops(controller: string): Promise<number> {
  const m = await controllerRuntimeReconcileHotLoops.get();
  return m.values.find((v) => v.labels.controller === controller)?.value ?? 0;
}

describe("hot-loop detection", () => {
  it("reports a status write that re-triggers itself with a new timestamp each time, once per window", async () => {
    const lines: { obj: unknown; msg: string }[] = [];
    const d = new HotLoopDetector("hl-timestamp", recordingLogger(lines), async () => 1, {
      reconciles: 5,
      windowMs: 10_000,
    });
    let t = 1_000;
    for (let i = 0; i < 12; i++, t += 100) {
      const at = new Date(t).toISOString();
      await d.observe({
        request: req,
        startedAt: t,
        endedAt: t + 10,
        requeued: false,
        writes: [statusWrite({ ready: true, lastUpdated: at }, 100 + i)],
      });
    }
    expect(d.hotKeys()).toEqual(["ns/w"]);
    expect(await hotLoops("hl-timestamp")).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toMatch(/Hot loop: reconciled 5 times/);
  });

  it("does not report new content, a changing generation, no-op writes, or slow polling", async () => {
    const lines: { obj: unknown; msg: string }[] = [];
    let generation = 1;
    const d = new HotLoopDetector("hl-healthy", recordingLogger(lines), async () => generation, {
      reconciles: 5,
      windowMs: 10_000,
    });
    let t = 1_000;
    // Status takes a new value each time.
    for (let i = 0; i < 10; i++, t += 100) {
      await d.observe({
        request: req,
        startedAt: t,
        endedAt: t + 1,
        requeued: false,
        writes: [statusWrite({ count: i }, 200 + i)],
      });
    }
    // Same status, but the spec (generation) keeps changing.
    for (let i = 0; i < 10; i++, t += 100) {
      generation++;
      await d.observe({
        request: req,
        startedAt: t,
        endedAt: t + 1,
        requeued: false,
        writes: [statusWrite({ count: 1 }, 300 + i, generation)],
      });
    }
    // Triggered by the world, writing nothing and not requeueing.
    for (let i = 0; i < 10; i++, t += 100) {
      await d.observe({ request: req, startedAt: t, endedAt: t + 1, requeued: false, writes: [] });
    }
    // Polling every 5 s: 20 polls never fit 5 in 10 s.
    for (let i = 0; i < 20; i++, t += 5_000) {
      await d.observe({ request: req, startedAt: t, endedAt: t + 1, requeued: true, writes: [] });
    }
    expect(d.hotKeys()).toEqual([]);
    expect(await hotLoops("hl-healthy")).toBe(0);
    expect(lines).toEqual([]);
  });

  it("reports a fast requeue that produces nothing", async () => {
    const d = new HotLoopDetector("hl-requeue", recordingLogger([]), undefined, {
      reconciles: 3,
      windowMs: 1_000,
    });
    for (let t = 0; t < 300; t += 100) {
      await d.observe({ request: req, startedAt: t, endedAt: t + 1, requeued: true, writes: [] });
    }
    expect(d.hotKeys()).toEqual(["ns/w"]);
  });

  it("fingerprints ignore resourceVersion, managedFields and timestamps but not values", () => {
    const a = fingerprint({
      metadata: { name: "x", resourceVersion: "1" },
      status: { at: "2026-01-01T00:00:00Z", n: 1 },
    });
    const b = fingerprint({
      metadata: { name: "x", resourceVersion: "2", managedFields: [] },
      status: { at: "2026-12-01T10:00:00.5Z", n: 1 },
    });
    const c = fingerprint({ metadata: { name: "x" }, status: { at: "2026-01-01T00:00:00Z", n: 2 } });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it("rejects bad options with the controller's name", () => {
    expect(() => new HotLoopDetector("bad", recordingLogger([]), undefined, { reconciles: 1 })).toThrow(
      /controller bad: hotLoop.reconciles/,
    );
    expect(() => new HotLoopDetector("bad", recordingLogger([]), undefined, { windowMs: 0 })).toThrow(
      /hotLoop.windowMs/,
    );
  });
});
