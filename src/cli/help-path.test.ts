/**
 * What `kbts --help` loads (issue 32): the command definitions and commander, nothing a command needs
 * only when it runs (ts-morph, TypeScript, YAML, handlebars, esbuild, the runtime, the commands' own
 * modules). Each definition imports its implementation with `await import()` inside its action; a
 * static import of one would be bundled into dist/cli.cjs and loaded by every `kbts` start.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import Module from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import {
  bundleCli,
  bundleFastPath,
  bundleManifests,
  CODE_CACHE_BUNDLE,
  cliBundleIsCurrent,
  FAST_PATH_BUNDLE,
  MANIFESTS_BUNDLE,
} from "../packaging/cli-bundle.js";

const ROOT = join(import.meta.dirname, "..", "..");
const KBTS = join(ROOT, "bin", "kbts.js");

/** The modules of src/ outside src/cli/ that the definitions may import statically: small, no packages. */
const BASE_MODULES = ["src/manifests/defaults.ts", "src/process.ts", "src/version.ts"];

describe("kbts --help", () => {
  it("bundles only the command definitions, commander and three small modules of src/", async () => {
    const inputs = await bundleCli(ROOT, { source: true });
    const packages = new Set(
      inputs.flatMap((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1] ?? []),
    );
    expect([...packages]).toEqual(["commander"]);
    const own = inputs.filter((f) => f.startsWith("src/"));
    expect(own.filter((f) => !f.startsWith("src/cli/"))).toEqual(BASE_MODULES);
    expect(
      own.filter((f) => f.startsWith("src/cli/") && !/^src\/cli\/(commands\/)?[\w-]+\.ts$/.test(f)),
    ).toEqual([]);
    expect(own).toContain("src/cli/commands/init.ts");
  });

  // Every module a `node bin/kbts.js …` loads: CommonJS ones from require.cache, ES modules through a
  // load hook (which sees every import, dynamic ones too); and the built-in modules it loaded.
  const dir = mkdtempSync(join(tmpdir(), "kbts-help-path-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("loads the bundle alone, or, when the bundle is stale, the definitions' modules alone", async () => {
    const { stdout, loaded, builtins } = await modulesLoadedBy(dir, ["--help"], dir);
    expect(stdout).toContain("Usage: kbts [options] [command]");
    if (cliBundleIsCurrent(ROOT)) {
      expect(loaded).toEqual(["bin/kbts.js", "dist/cli.cjs", "dist/code-cache.cjs"]);
      // commander's node:child_process is required on first use (cli-bundle.ts), not at load.
      expect(builtins).not.toContain("NativeModule child_process");
      return;
    }
    // A `tsc -b` after the last `make build`: bin/kbts.js runs dist/cli/main.js and what it imports.
    const base = BASE_MODULES.map((f) => f.replace(/^src\//, "dist/").replace(/\.ts$/, ".js"));
    expect(
      loaded.filter(
        (f) =>
          f !== "bin/kbts.js" &&
          !base.includes(f) &&
          !/^dist\/cli\/(commands\/)?[\w-]+\.js$/.test(f) &&
          !f.startsWith("node_modules/commander/"),
      ),
    ).toEqual([]);
  });
});

// Help goes out with write(2) where stdout is no terminal (src/cli/output.ts): creating process.stdout
// would load Node's stream stack, and net for a pipe.
describe("kbts --help's output", () => {
  const dir = mkdtempSync(join(tmpdir(), "kbts-help-out-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const builtinsLog = join(dir, "builtins.txt");
  const recorder = join(dir, "builtins.cjs");
  writeFileSync(
    recorder,
    `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(builtinsLog)}, process.moduleLoadList.join("\\n")));\n`,
  );
  const streamsLoaded = () =>
    readFileSync(builtinsLog, "utf8")
      .split("\n")
      .filter((m) => /^NativeModule (stream|net|tty)$/.test(m));

  it("reaches a pipe and a file whole, without Node's streams", async () => {
    const piped = await execa(process.execPath, ["-r", recorder, KBTS, "--help"]);
    expect(piped.stdout).toContain("Usage: kbts [options] [command]");
    expect(piped.stdout.trimEnd().split("\n").at(-1)).toMatch(
      /^ {2}help \[command\] +display help for command$/,
    );
    expect(streamsLoaded()).toEqual([]);
    const file = join(dir, "help.txt");
    await execa(process.execPath, ["-r", recorder, KBTS, "--help"], { stdout: { file } });
    expect(readFileSync(file, "utf8")).toBe(`${piped.stdout}\n`);
    expect(streamsLoaded()).toEqual([]);
  });

  it("ends quietly with status 0 when the pipe's reader has gone", async () => {
    const child = spawn(process.execPath, [KBTS, "--help"], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy(); // closed long before node has started and written
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const [code] = (await once(child, "close")) as [number | null];
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  });
});

// bin/kbts.js loads the bundles through dist/code-cache.cjs (src/ts/code-cache.ts): V8's code cache,
// written when the first run exits, holds the functions that run compiled. Node's own compile cache
// (where kbts keeps its files on Node >= 22.8; on Node 20 a checkout's go to kbts' user cache) holds
// little more than each module's top level.
describe("kbts from V8's code cache", () => {
  const dir = mkdtempSync(join(tmpdir(), "kbts-code-cache-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { NODE_COMPILE_CACHE: join(dir, "node"), XDG_CACHE_HOME: join(dir, "xdg") };
  /** The code caches kbts keeps for dist/cli.cjs, with their modification times. */
  const cliCaches = () =>
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => /(^|\/)kbts\/(v8\/)?cli\.cjs-.*\.bin$/.test(f))
      .map((f) => `${f} ${statSync(join(dir, f)).mtimeMs}`);

  it.runIf(cliBundleIsCurrent(ROOT))(
    "prints the same help from it, and runs commands that import their modules",
    async () => {
      const first = await execa(process.execPath, [KBTS, "--help"], { env });
      const written = cliCaches();
      const second = await execa(process.execPath, [KBTS, "--help"], { env });
      expect(second.stdout).toBe(first.stdout);
      // Written once, then read: V8 accepted it (a refused one is written again when the run exits).
      expect(written).toHaveLength(1);
      expect(written[0]).toMatch("enableCompileCache" in Module ? /^node\// : /^xdg\/kbts\/v8\//);
      expect(cliCaches()).toEqual(written);
      // A command's module is loaded with import() from code read from the cache.
      const version = await execa(process.execPath, [KBTS, "version"], { env });
      expect(version.stdout).toContain(`node ${process.versions.node}`);
      expect(version.stderr).toBe("");
    },
    60_000,
  );

  it.runIf(existsSync(join(ROOT, CODE_CACHE_BUNDLE)))(
    "keeps one cache per file and Node: a changed file's replaces the old",
    async () => {
      const file = join(dir, "module.cjs");
      const load = `require(${JSON.stringify(join(ROOT, CODE_CACHE_BUNDLE))}).runCachedCommonJs(${JSON.stringify(file)})`;
      const caches = () =>
        readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => /module\.cjs-.*\.bin$/.test(f));
      writeFileSync(file, "module.exports = 1;\n");
      await execa(process.execPath, ["-e", load], { env });
      const first = caches();
      expect(first).toHaveLength(1);
      writeFileSync(file, "module.exports = 22;\n"); // another size: another cache's name
      await execa(process.execPath, ["-e", load], { env });
      expect(caches()).toHaveLength(1);
      expect(caches()).not.toEqual(first);
    },
  );
});

describe("kbts manifests on unchanged inputs", () => {
  it("bundles the fast path with no package, and nothing of the generators", async () => {
    const inputs = await bundleFastPath(ROOT, { source: true });
    expect(inputs.filter((f) => f.includes("node_modules/"))).toEqual([]);
    expect(inputs).toContain("src/manifests/cache.ts");
    expect(inputs.filter((f) => /^src\/(markers|crd\/(?!types)|ts|schema|rbac|webhook)/.test(f))).toEqual([]);
  });

  const dir = mkdtempSync(join(tmpdir(), "kbts-fast-path-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is served from its bundle alone, without the CLI's modules", async () => {
    mkdirSync(join(dir, "api", "v1"), { recursive: true });
    writeFileSync(
      join(dir, "api/v1/groupversion_info.ts"),
      "// +groupName=t.kbts.test\nexport const GroupVersion = {} as const;\n",
    );
    writeFileSync(
      join(dir, "api/v1/thing_types.ts"),
      'import type { ObjectMeta } from "@kbts/runtime";\n\n// +kubebuilder:object:root=true\nexport interface Thing {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  spec?: { size?: string };\n}\n',
    );
    writeFileSync(join(dir, "tsconfig.json"), '{ "compilerOptions": { "strict": true } }\n');
    await execa(process.execPath, [KBTS, "manifests"], { cwd: dir }); // a full run records the entry
    const { stdout, loaded } = await modulesLoadedBy(join(dir, "hooks"), ["manifests"], dir);
    expect(stdout).toMatch(/inputs unchanged since the last run/);
    if (cliBundleIsCurrent(ROOT, FAST_PATH_BUNDLE)) {
      expect(loaded).toEqual(["bin/kbts.js", "dist/code-cache.cjs", "dist/manifests-cached.cjs"]);
    } else {
      // A `tsc -b` after the last `make build`: the same modules, unbundled, and still not the CLI.
      expect(loaded).toContain("dist/cli/fast-path.js");
      expect(loaded.filter((f) => f.startsWith("node_modules/") || f === "dist/cli.cjs")).toEqual([]);
    }
  }, 60_000);
});

describe("a full kbts manifests", () => {
  it("bundles the generators without TypeScript's compiler or errors.ts", async () => {
    const inputs = await bundleManifests(ROOT, { source: true });
    expect(inputs).toContain("src/manifests/generate.ts");
    expect(inputs.filter((f) => /node_modules\/(typescript|ts-morph|@ts-morph)\//.test(f))).toEqual([]);
    expect(inputs).not.toContain("src/errors.ts");
  });

  const dir = mkdtempSync(join(tmpdir(), "kbts-manifests-bundle-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.runIf(cliBundleIsCurrent(ROOT, MANIFESTS_BUNDLE))(
    "runs from its bundle, and reports the generators' errors as the CLI does",
    async () => {
      mkdirSync(join(dir, "api", "v1"), { recursive: true });
      writeFileSync(
        join(dir, "api/v1/groupversion_info.ts"),
        "// +groupName=t.kbts.test\nexport const GroupVersion = {} as const;\n",
      );
      const types = (marker: string) =>
        `import type { ObjectMeta } from "@kbts/runtime";\n\n// +kubebuilder:object:root=true\nexport interface Thing {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  spec?: {\n    // ${marker}\n    size?: string;\n  };\n}\n`;
      writeFileSync(join(dir, "api/v1/thing_types.ts"), types("+kubebuilder:validation:MaxLength=8"));
      writeFileSync(join(dir, "tsconfig.json"), '{ "compilerOptions": { "strict": true } }\n');
      const { stdout, loaded } = await modulesLoadedBy(join(dir, "hooks"), ["manifests", "--no-cache"], dir);
      expect(stdout).toMatch(/1 written/);
      expect(loaded).toContain(MANIFESTS_BUNDLE);
      expect(loaded.filter((f) => f.startsWith("dist/manifests/"))).toEqual([]);
      // A KbtsError thrown in the bundle is the CLI's class (errors.js is not bundled): printed, not a crash.
      writeFileSync(join(dir, "api/v1/thing_types.ts"), types("+kubebuilder:validation:MaxLength=eight"));
      const bad = await execa(process.execPath, [KBTS, "manifests"], { cwd: dir, reject: false });
      expect(bad.exitCode).toBe(1);
      expect(bad.stderr).toMatch(
        /^error: api\/v1\/thing_types\.ts:9:8: invalid marker \+kubebuilder:validation:MaxLength/,
      );
    },
    60_000,
  );
});

/**
 * Runs `node bin/kbts.js ...args` in `cwd` and lists the files of this repository it loaded (CommonJS
 * from require.cache, ES modules through a load hook) and the built-in modules (process.moduleLoadList).
 */
async function modulesLoadedBy(
  work: string,
  args: string[],
  cwd: string,
): Promise<{ stdout: string; loaded: string[]; builtins: string[] }> {
  mkdirSync(work, { recursive: true });
  const log = join(work, "loaded.txt");
  const builtins = join(work, "builtins.txt");
  writeFileSync(log, "");
  writeFileSync(
    join(work, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}
`,
  );
  writeFileSync(
    join(work, "register.mjs"),
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(work, "hooks.mjs")).href)});\n`,
  );
  writeFileSync(
    join(work, "require-cache.cjs"),
    `process.on("exit", () => {
  const fs = require("node:fs");
  fs.appendFileSync(${JSON.stringify(log)}, Object.keys(require.cache).map((f) => require("node:url").pathToFileURL(f).href + "\\n").join(""));
  fs.writeFileSync(${JSON.stringify(builtins)}, process.moduleLoadList.join("\\n"));
});\n`,
  );
  const run = await execa(
    process.execPath,
    [
      "--import",
      pathToFileURL(join(work, "register.mjs")).href,
      "-r",
      join(work, "require-cache.cjs"),
      KBTS,
      ...args,
    ],
    { cwd },
  );
  const loaded = [
    ...new Set(
      readFileSync(log, "utf8")
        .split("\n")
        .filter((u) => u.startsWith("file:"))
        .map((u) => relative(ROOT, new URL(u).pathname))
        .filter((f) => !f.startsWith("..")),
    ),
  ].sort();
  return { stdout: run.stdout, loaded, builtins: readFileSync(builtins, "utf8").split("\n") };
}
