/**
 * The Go-tool installer without the network: GOPROXY=off makes every module lookup fail at once, and
 * the one build that succeeds is a local module with no dependencies. The real tools' cache paths are
 * pinned, so caches built before this module stay valid.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { goOperatorTool } from "../../bench/gpubudget/go-operator.js";
import { CONTROLLER_GEN } from "../../testdata/controller-gen/index.js";
import { cachedGoTool, type GoTool, goToolBin, installGoTool } from "./go-tool.js";
import { HELM } from "./helm.js";

const saved = {
  XDG_CACHE_HOME: process.env.XDG_CACHE_HOME,
  GOPROXY: process.env.GOPROXY,
  PATH: process.env.PATH,
};
// Go's build cache lives under XDG_CACHE_HOME unless GOCACHE says otherwise: keep the user's, so
// the one build here does not recompile the standard library.
const goCache = execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim();
let cache: string;

beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), "kbts-go-tool-"));
  process.env.XDG_CACHE_HOME = cache;
  process.env.GOPROXY = "off";
  process.env.GOCACHE = goCache;
});

afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(cache, { recursive: true, force: true });
});

const fake = (over: Partial<GoTool> = {}): GoTool => ({
  label: "fake v0.0.1",
  name: "fake",
  stamp: "v0.0.1",
  binary: "fake",
  make: "make fake",
  build: { install: "example.invalid/nothing/cmd/fake@v0.0.1" },
  ...over,
});

/** What is left under the tool's folder in the cache (a lock is a sibling folder, gone once released). */
const leftIn = (tool: GoTool) => {
  const dir = join(cache, "kbts", tool.name);
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : [];
};

describe("where a Go tool is cached", () => {
  it("is kbts/<name>/<version or source stamp>/<binary> in the user cache, as before", () => {
    expect(goToolBin(HELM)).toBe(join(cache, "kbts/helm/v3.22.0/helm"));
    expect(goToolBin(CONTROLLER_GEN)).toBe(join(cache, "kbts/controller-gen/v0.23.0/controller-gen"));
    expect(goToolBin(goOperatorTool())).toMatch(
      new RegExp(`^${cache}/kbts/gpubudget-go/[0-9a-f]{16}/manager$`),
    );
  });

  it("keeps one folder per version, so another version is built beside it", () => {
    expect(goToolBin(fake({ stamp: "v0.0.2" }))).not.toBe(goToolBin(fake()));
  });
});

describe("cachedGoTool", () => {
  it("names the missing binary and the make target that builds it", () => {
    expect(cachedGoTool(fake())).toEqual({
      ok: false,
      reason: `fake v0.0.1 is not built (${join(cache, "kbts/fake/v0.0.1/fake")} is missing): run \`make fake\` first`,
    });
  });

  it("finds a built binary, without Go unless the binary runs go itself", () => {
    const bin = goToolBin(fake());
    mkdirSync(join(bin, ".."), { recursive: true });
    writeFileSync(bin, "#!/bin/sh\n");
    chmodSync(bin, 0o755);
    process.env.PATH = "/nonexistent";
    expect(cachedGoTool(fake())).toEqual({ ok: true, bin });
    expect(cachedGoTool(fake({ goAtRunTime: true }))).toEqual({
      ok: false,
      reason: "go not on PATH, so fake v0.0.1 cannot be built or run: install Go, then run `make fake`",
    });
  });
});

describe("installGoTool", () => {
  it("says go is missing instead of trying, and leaves nothing behind", async () => {
    process.env.PATH = "/nonexistent";
    expect(await installGoTool(fake())).toEqual({
      ok: false,
      reason: "go not on PATH, so fake v0.0.1 cannot be built: install Go, then run `make fake`",
    });
    expect(leftIn(fake())).toEqual([]);
  });

  it("fails on a module it cannot fetch with one error naming the go command and go's reason", async () => {
    const result = await installGoTool(fake());
    expect(result).toEqual({ ok: false, reason: expect.any(String) });
    const reason = result.ok ? "" : result.reason;
    expect(reason).toMatch(
      /^fake v0\.0\.1: go install -trimpath example\.invalid\/nothing\/cmd\/fake@v0\.0\.1 failed \(exit 1\): go: .*module lookup disabled by GOPROXY=off$/,
    );
    // No half-built binary and no staging folder: the next run starts clean.
    expect(leftIn(fake())).toEqual(["v0.0.1"]);
  });

  it("fails on an invalid version with go's reason", async () => {
    const result = await installGoTool(fake({ build: { install: "example.invalid/nothing/cmd/fake@" } }));
    expect(result.ok ? "" : result.reason).toMatch(/failed \(exit 1\): go: .*version must not be empty$/);
  });

  it("builds a local module into its stamped folder once, and reuses it after", async () => {
    const module = mkdtempSync(join(tmpdir(), "kbts-go-tool-src-"));
    try {
      writeFileSync(join(module, "go.mod"), "module example.invalid/hello\n\ngo 1.22\n");
      mkdirSync(join(module, "cmd"));
      writeFileSync(
        join(module, "cmd/main.go"),
        'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n',
      );
      const tool = fake({ stamp: "abc123", binary: "manager", build: { module, package: "./cmd" } });
      const built = await installGoTool(tool);
      expect(built).toEqual({ ok: true, bin: join(cache, "kbts/fake/abc123/manager") });
      expect(execFileSync(goToolBin(tool), { encoding: "utf8" })).toBe("hello\n");
      expect(leftIn(tool)).toEqual(["abc123", "abc123/manager"]);
      const mtime = statSync(goToolBin(tool)).mtimeMs;
      expect(await installGoTool(tool)).toEqual(built);
      expect(statSync(goToolBin(tool)).mtimeMs).toBe(mtime);
    } finally {
      rmSync(module, { recursive: true, force: true });
    }
  }, 120_000);
});
