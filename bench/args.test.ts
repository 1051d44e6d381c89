import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { benchArgs, benchUsage } from "./args.js";

const OPTIONS = {
  pods: { type: "string", default: "10000" },
  project: { type: "string" },
  cluster: { type: "boolean", default: false },
} as const;

/** Runs benchArgs with process.exit and the console caught: what it returned, printed and exited with. */
function run(argv: string[]): { values?: unknown; exit?: number; out: string; err: string } {
  const printed = { out: "", err: "" };
  vi.spyOn(console, "log").mockImplementation((line: string) => {
    printed.out += `${line}\n`;
  });
  vi.spyOn(console, "error").mockImplementation((line: string) => {
    printed.err += `${line}\n`;
  });
  vi.spyOn(process, "exit").mockImplementation((code) => {
    throw Object.assign(new Error("exit"), { exitCode: code });
  });
  try {
    return { values: benchArgs("bench/x", OPTIONS, argv).values, ...printed };
  } catch (err) {
    return { exit: (err as { exitCode?: number }).exitCode, ...printed };
  }
}

describe("benchArgs", () => {
  afterEach(() => vi.restoreAllMocks());

  it("gives the flags with their defaults", () => {
    expect(run(["--pods", "2000", "--cluster"]).values).toEqual({ pods: "2000", cluster: true });
    expect(run([]).values).toEqual({ pods: "10000", cluster: false });
  });

  it("prints the flags and exits 0 on --help", () => {
    const { exit, out } = run(["--pods", "1", "--help"]);
    expect(exit).toBe(0);
    expect(out).toBe(`${benchUsage("bench/x", OPTIONS)}\n`);
    expect(out).toContain(
      "  --pods <value> (default 10000)\n  --project <value>\n  --cluster (default false)",
    );
  });

  it("names a flag it does not know, or a value missing, in one line and exits 2", () => {
    const unknown = run(["--podz", "1"]);
    expect(unknown.exit).toBe(2);
    expect(unknown.err).toMatch(/^bench\/x: Unknown option '--podz'.*\(--help lists the flags\)\n$/);
    const missing = run(["--pods"]);
    expect(missing.exit).toBe(2);
    expect(missing.err).toMatch(/^bench\/x: Option '--pods <value>' argument missing.*\n$/);
  });

  it("is what a bench answers to a flag it does not know, before it starts anything", async () => {
    const bench = promisify(execFile)(process.execPath, [
      "--import",
      "tsx",
      "bench/gpubudget/main.ts",
      "--podz",
    ]);
    const failed = (await bench.then(
      () => undefined,
      (err: unknown) => err,
    )) as { code?: number; stderr?: string } | undefined;
    expect(failed?.code).toBe(2);
    expect(failed?.stderr?.trim().split("\n")).toEqual([
      expect.stringMatching(/^bench\/gpubudget: Unknown option '--podz'.*\(--help lists the flags\)$/),
    ]);
  }, 30_000);
});
