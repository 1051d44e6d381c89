/**
 * kbts the npm way: this checkout's two packages published with `npm publish` (their `prepack` builds
 * them) to a real registry on localhost (verdaccio, e2e/support/verdaccio.ts), then `npm i -g kbts`
 * from it with an empty npm cache, as users install it. The GPUBudget project that kbts scaffolds
 * depends on kbts and @kbts/runtime by version range (no vendor/, no `file:`), installs them from that
 * registry, generates its manifests and passes its whole test suite. (installed.test.ts proves the
 * offline path, `make dist`'s tarball.)
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCheckout } from "./support/build.js";
import {
  installPublishedKbts,
  type KbtsOnPath,
  publishCheckout,
  runInProject,
} from "./support/kbts-install.js";
import { emptyNpmCache, npmInstall } from "./support/npm.js";
import { SCAFFOLD_COMMANDS } from "./support/operator.js";
import { REPO } from "./support/paths.js";
import { startVerdaccio, type Verdaccio } from "./support/verdaccio.js";

const ASSETS = process.env.KUBEBUILDER_ASSETS ?? "";
const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-published-"));
const npmCache = emptyNpmCache();
const project = join(work, "gpubudget");
let registry: Verdaccio;
let kbts: KbtsOnPath;

const inProject = runInProject(project, () => kbts);

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  bundleDependencies?: string[];
}

beforeAll(async () => {
  await buildCheckout();
  registry = await startVerdaccio(join(work, "registry"));
  mkdirSync(project);
}, 120_000);

afterAll(async () => {
  await registry?.close();
  if (process.env.KEEP_E2E !== "true") {
    rmSync(work, { recursive: true, force: true });
    rmSync(npmCache, { recursive: true, force: true });
  }
});

describe.sequential("kbts published to a registry and installed from it", () => {
  it("npm publish puts @kbts/runtime and kbts on the registry, kbts depending on the runtime by version", async () => {
    const publish = await publishCheckout(registry.env);
    expect(publish.exitCode, `${publish.all}\nverdaccio:\n${registry.output()}`).toBe(0);
    // A cache of its own: the one npm i -g uses next stays empty.
    const viewCache = emptyNpmCache();
    const view = await execa("npm", ["view", `kbts@${VERSION}`, "--json"], {
      cwd: work,
      env: { ...registry.env, npm_config_cache: viewCache },
      reject: false,
    });
    rmSync(viewCache, { recursive: true, force: true });
    expect(view.exitCode, view.stderr).toBe(0);
    const published = JSON.parse(view.stdout) as PackageJson & { dist: { tarball: string } };
    expect(published.dist.tarball.startsWith(registry.url)).toBe(true);
    expect(published.dependencies?.["@kbts/runtime"]).toBe(VERSION);
    expect(published.bundleDependencies).toBeUndefined();
  });

  it("npm i -g kbts installs the built packages from the registry, with no tarballs inside", async () => {
    kbts = await installPublishedKbts(work, npmCache, registry.env);
    const installed = join(kbts.prefix, "lib/node_modules/kbts");
    const runtime = join(installed, "node_modules/@kbts/runtime");
    for (const built of [join(installed, "dist/cli/main.js"), join(runtime, "dist/index.js")]) {
      expect(existsSync(built), built).toBe(true);
    }
    expect(existsSync(join(installed, "templates/typescript/init/Dockerfile.hbs"))).toBe(true);
    expect(existsSync(join(installed, "vendor"))).toBe(false);
    expect(existsSync(join(installed, "src")) || existsSync(join(runtime, "src"))).toBe(false);
    const version = await execa("kbts", ["version"], { cwd: work, env: kbts.env, all: true, reject: false });
    expect(version.exitCode, version.all).toBe(0);
    expect(version.stdout).toContain(`from installed package ${installed}`);
  });

  it("kbts init and create api --plugins gpu-budget/v1-alpha depend on both packages by version range", async () => {
    expect(project.startsWith(REPO)).toBe(false);
    // The operator's usual scaffold, with init's own npm install.
    for (const args of SCAFFOLD_COMMANDS) {
      const r = await inProject(
        "kbts",
        args.filter((a) => a !== "--skip-install"),
      );
      expect(r.exitCode, r.all).toBe(0);
    }
    const text = readFileSync(join(project, "package.json"), "utf8");
    const pkg = JSON.parse(text) as PackageJson;
    expect(pkg.dependencies?.["@kbts/runtime"]).toBe(`^${VERSION}`);
    expect(pkg.devDependencies?.kbts).toBe(`^${VERSION}`);
    expect(text).not.toContain("file:");
    expect(existsSync(join(project, "vendor"))).toBe(false);
    expect(readFileSync(join(project, "Dockerfile"), "utf8")).not.toContain("vendor");
  });

  it("npm install gets kbts and @kbts/runtime from the registry, with no file: dependency", async () => {
    const install = await npmInstall(project, { cache: npmCache, env: kbts.env });
    expect(install.exitCode, install.all).toBe(0);
    const lock = readFileSync(join(project, "package-lock.json"), "utf8");
    expect(lock).not.toContain("file:");
    const packages = (JSON.parse(lock) as { packages: Record<string, { version?: string; link?: boolean }> })
      .packages;
    for (const name of ["@kbts/runtime", "kbts"]) {
      expect(packages[`node_modules/${name}`], name).toEqual(expect.objectContaining({ version: VERSION }));
      expect(packages[`node_modules/${name}`]?.link, name).toBeUndefined();
      // A package npm unpacked, not a link to a checkout.
      expect(lstatSync(join(project, "node_modules", name)).isSymbolicLink(), name).toBe(false);
    }
    expect(existsSync(join(project, "vendor"))).toBe(false);
  });

  it("make manifests and make test pass", async () => {
    const manifests = await inProject("make", ["manifests"]);
    expect(manifests.exitCode, manifests.all).toBe(0);
    const test = await inProject("make", ["test"], { KUBEBUILDER_ASSETS: ASSETS });
    expect(test.exitCode, test.all).toBe(0);
    // Every one of the GPUBudget operator's own tests runs and passes: a skipped or missing test fails here.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips vitest's colours
    expect(test.all.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/Tests\s+167 passed \(167\)/);
  });
});
