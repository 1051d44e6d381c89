import { parseArgs } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { consoleLine } from "./console.js";
import { createLogger } from "./logger.js";
import { encodeTime, nowMs } from "./time.js";
import { zapFlagOptions, zapLoggerOptions } from "./zap.js";

/** A logger made from command-line zap flags, writing to an array. */
function fromFlags(args: string[]) {
  const { values } = parseArgs({
    args,
    strict: true,
    allowNegative: true,
    options: zapFlagOptions({ development: true }),
  });
  const raw: string[] = [];
  const log = createLogger({
    ...zapLoggerOptions(values),
    name: "setup",
    destination: { write: (s: string) => void raw.push(s) },
  });
  return { log, raw };
}

describe("zap flags mapped onto pino", () => {
  it("--zap-devel (the scaffold's default): console lines, debug level, stack traces from warn", () => {
    const { log, raw } = fromFlags([]);
    log.debug({ port: 8081 }, "debugging");
    log.warn("careful");
    expect(raw[0]).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\tDEBUG\tsetup\tdebugging\t\{"port": 8081\}\n$/,
    );
    const [first, ...stack] = (raw[1] ?? "").trimEnd().split("\n");
    expect(first).toMatch(/\tWARN\tsetup\tcareful$/);
    expect(stack.join("\n")).toContain("zap.test.ts");
    expect(stack.join("\n")).not.toMatch(/node_modules[/\\]pino/);
  });

  it("--zap-devel=false: JSON lines at info, a stack trace only on errors", () => {
    const { log, raw } = fromFlags(["--no-zap-devel"]);
    log.debug("hidden");
    log.info({ a: 1 }, "shown");
    log.error({ err: new Error("boom") }, "failed");
    expect(raw).toHaveLength(2);
    const info = JSON.parse(raw[0] ?? "{}");
    expect(info).toMatchObject({ level: "info", logger: "setup", msg: "shown", a: 1 });
    expect(info.stacktrace).toBeUndefined();
    const error = JSON.parse(raw[1] ?? "{}");
    expect(error).toMatchObject({ level: "error", msg: "failed", err: { message: "boom" } });
    expect(error.stacktrace).toContain("zap.test.ts");
  });

  it("--zap-encoder picks json or console whatever the mode", () => {
    expect(fromFlags(["--zap-encoder=json"]).log).toBeDefined();
    const json = fromFlags(["--zap-encoder", "JSON"]);
    json.log.info("x");
    expect(JSON.parse(json.raw[0] ?? "")).toMatchObject({ msg: "x" });
    const console = fromFlags(["--no-zap-devel", "--zap-encoder=console"]);
    console.log.info({ k: "v" }, "x");
    expect(console.raw[0]).toMatch(/\tINFO\tsetup\tx\t\{"k": "v"\}\n$/);
  });

  it("--zap-log-level: debug, info, error, panic and integer verbosity", () => {
    const seen = (level: string) => {
      const { log, raw } = fromFlags(["--zap-encoder=json", `--zap-log-level=${level}`]);
      log.debug("d");
      log.info("i");
      log.warn("w");
      log.error("e");
      return raw.map((l) => JSON.parse(l).msg).join("");
    };
    expect(seen("debug")).toBe("diwe");
    expect(seen("info")).toBe("iwe");
    expect(seen("error")).toBe("e");
    expect(seen("panic")).toBe("");
    expect(seen("1")).toBe("diwe");
    expect(zapLoggerOptions({ "zap-log-level": "1" }).level).toBe("debug");
    expect(zapLoggerOptions({ "zap-log-level": "2" }).level).toBe("trace");
    expect(zapLoggerOptions({ "zap-log-level": "Info" }).level).toBe("info");
  });

  it("--zap-stacktrace-level: info, error or panic", () => {
    const { log, raw } = fromFlags(["--zap-encoder=json", "--zap-stacktrace-level=info"]);
    log.debug("d");
    log.info("i");
    expect(JSON.parse(raw[0] ?? "").stacktrace).toBeUndefined();
    expect(JSON.parse(raw[1] ?? "").stacktrace).toContain("zap.test.ts");
    const panic = fromFlags(["--zap-encoder=json", "--zap-stacktrace-level=panic"]);
    panic.log.error("e");
    expect(JSON.parse(panic.raw[0] ?? "").stacktrace).toBeUndefined();
  });

  it("--zap-time-encoding writes the time field as zap's encoders", () => {
    const ms = Date.UTC(2026, 11, 1, 5, 4, 3, 120) + 0.5;
    expect(encodeTime("epoch", ms)).toBeCloseTo(1_796_101_443.12, 2);
    expect(encodeTime("millis", ms)).toBe(ms);
    expect(encodeTime("nano", ms)).toBe("1796101443120500000");
    expect(encodeTime("iso8601", ms)).toBe("2026-12-01T05:04:03.120Z");
    expect(encodeTime("rfc3339", ms)).toBe("2026-12-01T05:04:03Z");
    expect(encodeTime("rfc3339nano", ms)).toBe("2026-12-01T05:04:03.1205Z");
    expect(encodeTime("rfc3339nano", Date.UTC(2026, 0, 1))).toBe("2026-01-01T00:00:00Z");
    const time = (encoding: string) => {
      const { log, raw } = fromFlags(["--zap-encoder=json", `--zap-time-encoding=${encoding}`]);
      log.info("t");
      return JSON.parse(raw[0] ?? "").time as unknown;
    };
    const stamped = (encoding: "epoch" | "millis") => {
      const before = Date.now();
      const t = Number(time(encoding)) * (encoding === "epoch" ? 1000 : 1);
      const after = Date.now();
      // 1 µs of slack for epoch's division and multiplication in floating point
      expect(t).toBeGreaterThanOrEqual(before - 1e-3);
      expect(t).toBeLessThan(after + 1);
    };
    stamped("epoch");
    stamped("millis");
    expect(typeof time("nano")).toBe("number");
    expect(time("nanos")).toBeGreaterThan(1e18);
    expect(time("iso8601")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(time("rfc3339")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(time("RFC3339Nano")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
  });

  it("stamps the wall-clock time even when the monotonic clock drifts from it", () => {
    // A suspended VM or an NTP slew moves Date.now() but not performance.now().
    const monotonic = performance.now.bind(performance);
    const drift = vi.spyOn(performance, "now").mockImplementation(() => monotonic() - 7_000);
    try {
      for (let i = 0; i < 3; i++) {
        const before = Date.now();
        const t = nowMs();
        expect(t).toBeGreaterThanOrEqual(before);
        expect(t).toBeLessThan(Date.now() + 1);
      }
    } finally {
      drift.mockRestore();
    }
    const before = Date.now();
    expect(nowMs()).toBeGreaterThanOrEqual(before);
  });

  it("a bad value is an error naming the flag and the accepted values", () => {
    expect(() => zapLoggerOptions({ "zap-log-level": "verbose" })).toThrow(
      'invalid value "verbose" for flag --zap-log-level: use one of debug, info, error, panic, or an integer > 0',
    );
    expect(() => zapLoggerOptions({ "zap-log-level": "0" })).toThrow(/--zap-log-level/);
    expect(() => zapLoggerOptions({ "zap-log-level": "warn" })).toThrow(/--zap-log-level/);
    expect(() => zapLoggerOptions({ "zap-encoder": "text" })).toThrow(
      'invalid value "text" for flag --zap-encoder: use one of json, console',
    );
    expect(() => zapLoggerOptions({ "zap-stacktrace-level": "warn" })).toThrow(
      'invalid value "warn" for flag --zap-stacktrace-level: use one of info, error, panic',
    );
    expect(() => zapLoggerOptions({ "zap-time-encoding": "unix" })).toThrow(
      'invalid value "unix" for flag --zap-time-encoding: use one of epoch, millis, nano, iso8601, rfc3339, rfc3339nano',
    );
  });

  it("the console encoder prints an error's message as a field and its stack below", () => {
    const line = consoleLine(
      JSON.stringify({
        level: "error",
        time: "T",
        msg: "failed",
        err: { message: "boom", stack: "Error: boom\n    at f" },
      }),
    );
    expect(line).toBe('T\tERROR\tfailed\t{"error": "boom"}\nError: boom\n    at f\n');
  });
});
