import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildRuntime } from "../../testdata/runtime-build.js";
import { typecheckProject } from "../../testdata/typecheck.js";
import { runCreateApi, runCreateWebhook, runInit } from "../commands/index.js";
import { findFloatingPromises } from "../lint/floating.js";
import { generateManifests } from "../manifests/generate.js";

/**
 * Kinds named like JavaScript/TypeScript globals (OpenShift's config.openshift.io/v1 Proxy, and any
 * Map, Promise or Request a project defines) scaffold a project that compiles: where the kind is in
 * scope, generated code names the global globalThis.X and the runtime's Request KbtsRequest. One
 * project holds every such kind with its controller and webhooks, so one type check covers them all.
 */
const KINDS = [
  "Proxy",
  "Map",
  "Set",
  "Promise",
  "Date",
  "Error",
  "Object",
  "Function",
  "Symbol",
  "Request",
  "Response",
  "Record",
  "Array",
  "Buffer",
];

// Its node_modules is this checkout's, so the project resolves @kbts/runtime, typescript and vitest
// from here for its type check; it is not under node_modules, which Biome never checks.
const REPO = fileURLToPath(new URL("../..", import.meta.url));
let dir: string;

beforeAll(async () => {
  await buildRuntime();
  dir = join(mkdtempSync(join(tmpdir(), "kbts-global-kinds-")), "globals");
  mkdirSync(dir);
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  await runInit(dir, {
    domain: "example.com",
    repo: "example.com/globals",
    projectName: "globals",
    runtime: "registry",
  });
  for (const kind of KINDS) {
    await runCreateApi(dir, { group: "config", version: "v1", kind });
    await runCreateWebhook(dir, {
      group: "config",
      version: "v1",
      kind,
      defaulting: true,
      programmaticValidation: true,
    });
  }
}, 300_000);
afterAll(() => {
  if (dir) rmSync(join(dir, ".."), { recursive: true, force: true });
});

describe("kinds named like globals", () => {
  it("scaffold; the global is named globalThis.X where the kind shadows it", () => {
    const controller = readFileSync(join(dir, "internal/controller/promise_controller.ts"), "utf8");
    expect(controller).toContain("): globalThis.Promise<Result | undefined> {");
    const request = readFileSync(join(dir, "internal/controller/request_controller.ts"), "utf8");
    expect(request).toContain("type Request as KbtsRequest,");
    expect(request).toContain("async reconcile(request: KbtsRequest,");
    // Other kinds read as before.
    const proxy = readFileSync(join(dir, "internal/controller/proxy_controller.ts"), "utf8");
    expect(proxy).toContain("async reconcile(request: Request, { log }: ReconcileContext): Promise<");
  });

  it("get controller-gen's plurals (Proxy → proxies) in their CRDs", async () => {
    const { files } = await generateManifests({ root: dir });
    const plurals = new Map<string, string>();
    for (const [path, text] of files) {
      if (!path.startsWith("config/crd/bases/")) continue;
      const crd = parse(text) as { spec: { names: { kind: string; plural: string } } };
      plurals.set(crd.spec.names.kind, crd.spec.names.plural);
    }
    const plural = (kind: string) => plurals.get(kind);
    expect(plural("Proxy")).toBe("proxies");
    expect(KINDS.map(plural)).toEqual([
      "proxies",
      "maps",
      "sets",
      "promises",
      "dates",
      "errors",
      "objects",
      "functions",
      "symbols",
      "requests",
      "responses",
      "records",
      "arrays",
      "buffers",
    ]);
  }, 60_000);

  it("pass the project's own formatter and linter (biome check)", () => {
    const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
    const run = () =>
      execFileSync(process.execPath, [biome, "check", "--vcs-enabled=false", "."], {
        cwd: dir,
        encoding: "utf8",
        stdio: "pipe",
      });
    expect(run).not.toThrow();
  }, 60_000);

  it("have no floating promises (kbts lint)", () => {
    expect(findFloatingPromises(dir)).toEqual([]);
  }, 300_000);

  it("type-check against @kbts/runtime as generated (tsc -p tsconfig.json)", () => {
    expect(typecheckProject(dir)).toBe("");
  }, 300_000);
});
