import { describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import { createUnmanagedController } from "../controller/controller.js";
import type { RequestQueue } from "../handler/types.js";
import { createLogger } from "./logger.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  return { lines, destination: { write: (s: string) => void lines.push(JSON.parse(s)) } };
}

describe("createLogger", () => {
  it("writes JSON lines with a level label, ISO time and the logger name", () => {
    const { lines, destination } = capture();
    const log = createLogger({ name: "setup", destination });
    log.info({ port: 8080 }, "starting");
    log.debug("hidden at info");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", logger: "setup", port: 8080, msg: "starting" });
    expect(String(lines[0]?.time)).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("development lowers the default level to debug", () => {
    const { lines, destination } = capture();
    createLogger({ development: true, encoder: "json", destination }).debug("visible");
    expect(lines).toHaveLength(1);
  });

  it('a field equal to a bound one is written once (Go\'s log.Info(..., "name", ct.Name) in a reconcile)', () => {
    const raw: string[] = [];
    const log = createLogger({ name: "setup", destination: { write: (s: string) => void raw.push(s) } });
    const reconcileLog = log.child({ namespace: "default", name: "my-crontab" });
    reconcileLog.info({ name: "my-crontab", spec: "*/5 * * * *" }, "reconciling");
    reconcileLog.info({ name: "other" }, "a different value is kept");
    expect(raw[0]?.match(/"name":/g)).toHaveLength(1);
    expect(JSON.parse(raw[0] ?? "{}")).toMatchObject({ name: "my-crontab", spec: "*/5 * * * *" });
    expect(raw[1]).toContain('"name":"other"');
  });

  it("rejects unknown levels", () => {
    expect(() => createLogger({ level: "verbose" })).toThrow(/unknown level "verbose"/);
  });

  it("every reconcile line carries controller, group, kind, namespace, name and reconcileID", async () => {
    const { lines, destination } = capture();
    const Widget = defineKind({
      group: "example.com",
      version: "v1",
      kind: "Widget",
      plural: "widgets",
      namespaced: true,
    });
    let queue: RequestQueue | undefined;
    const name = `logtest_${process.pid}`;
    const c = createUnmanagedController(name, {
      logger: createLogger({ level: "debug", destination }),
      forKind: Widget,
      reconciler: {
        async reconcile(_req, ctx) {
          ctx.log.info("inside");
          return undefined;
        },
      },
    });
    c.watch({
      name: "test",
      start: async (q) => {
        queue = q;
      },
      waitForSync: async () => true,
    });
    const stop = new AbortController();
    const done = c.start(stop.signal);
    while (!queue) await new Promise((r) => setTimeout(r, 5));
    queue.add({ namespace: "ns", name: "w1" });
    while (!lines.some((l) => l.msg === "Reconcile successful")) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await done;
    const reconcileLines = lines.filter((l) =>
      ["Reconciling", "inside", "Reconcile successful"].includes(String(l.msg)),
    );
    expect(reconcileLines).toHaveLength(3);
    const ids = new Set(reconcileLines.map((l) => l.reconcileID));
    expect(ids.size).toBe(1);
    for (const l of reconcileLines) {
      expect(l).toMatchObject({
        controller: name,
        controllerGroup: "example.com",
        controllerKind: "Widget",
        namespace: "ns",
        name: "w1",
      });
      expect(String(l.reconcileID)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
