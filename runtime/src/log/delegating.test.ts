import { describe, expect, it } from "vitest";
import { namedLogger, setLogger } from "./delegating.js";
import { createLogger } from "./logger.js";

function capture() {
  const raw: string[] = [];
  return { raw, destination: { write: (s: string) => void raw.push(s) } };
}

// Made when the module loads, as a scaffolded webhook file makes its logger: before main's setLogger.
const webhookLog = namedLogger("memcached-resource");

describe("namedLogger and setLogger (ctrl.SetLogger, logf.Log.WithName)", () => {
  it("a logger made before setLogger writes through the one installed later, with its flags", () => {
    const first = capture();
    setLogger(createLogger({ encoder: "json", level: "info", destination: first.destination }));
    webhookLog.info({ name: "m1" }, "Defaulting for Memcached");
    webhookLog.debug("below --zap-log-level=info");
    expect(first.raw.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({
        level: "info",
        logger: "memcached-resource",
        name: "m1",
        msg: "Defaulting for Memcached",
      }),
    ]);

    const second = capture();
    setLogger(createLogger({ development: true, destination: second.destination }));
    webhookLog.debug("Validation for Memcached upon creation");
    expect(second.raw).toHaveLength(1);
    expect(second.raw[0]).toMatch(/\tDEBUG\tmemcached-resource\tValidation for Memcached upon creation/);
    expect(first.raw).toHaveLength(1);
  });

  it("child adds bindings, and a stack trace starts at the caller, not in the delegation", () => {
    const { raw, destination } = capture();
    setLogger(createLogger({ encoder: "json", stacktraceLevel: "warn", destination }));
    webhookLog.child({ namespace: "default" }).warn("careful");
    const line = JSON.parse(raw[0] ?? "{}") as Record<string, unknown>;
    expect(line).toMatchObject({ logger: "memcached-resource", namespace: "default", msg: "careful" });
    expect(String(line.stacktrace).split("\n")[0]).toContain("delegating.test.ts");
  });
});
