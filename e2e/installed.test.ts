/**
 * kbts for offline use: packed (`make dist`), installed with `npm install -g ./kbts-<v>.tgz` into a
 * prefix of its own, and used in a directory outside this checkout with an empty npm cache. The
 * GPUBudget project it scaffolds depends on kbts and @kbts/runtime by version through the tarballs
 * vendored in vendor/kbts/ (no `file:/` anywhere), installs and generates its manifests; its own test
 * suite runs in published.test.ts (kbts from a registry), where the project differs only in where the
 * two packages come from. Its Dockerfile's build context is proven without a container engine
 * (e2e/support/dockerfile.ts): only what the COPY lines bring in, the RUN steps, then the built manager
 * starts and stops on the missing cluster, saying so.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCheckout } from "./support/build.js";
import { buildDockerfile, contextFiles, DockerBuildError } from "./support/dockerfile.js";
import { type InstalledKbts, installKbts, runInProject } from "./support/kbts-install.js";
import { emptyNpmCache, npmInstall } from "./support/npm.js";
import { SCAFFOLD_COMMANDS } from "./support/operator.js";
import { REPO } from "./support/paths.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-installed-"));
const npmCache = emptyNpmCache();
const project = join(work, "gpubudget");
let kbts: InstalledKbts;

const inProject = runInProject(project, () => kbts);

beforeAll(async () => {
  await buildCheckout();
  kbts = await installKbts(work, npmCache);
  mkdirSync(project);
}, 600_000);

afterAll(() => {
  if (process.env.KEEP_E2E !== "true") {
    rmSync(work, { recursive: true, force: true });
    rmSync(npmCache, { recursive: true, force: true });
  }
});

describe.sequential("an installed kbts, outside the checkout", () => {
  it("is on PATH and says it runs from an installed package", async () => {
    expect(project.startsWith(REPO)).toBe(false);
    const version = await inProject("kbts", ["version"]);
    expect(version.exitCode, version.all).toBe(0);
    expect(version.stdout).toContain(`from installed package ${join(kbts.prefix, "lib/node_modules/kbts")}`);
  });

  it("kbts init and create api --plugins gpu-budget/v1-alpha vendor the tarballs and install the project", async () => {
    // The operator's usual scaffold, with init's own npm install.
    for (const args of SCAFFOLD_COMMANDS) {
      const r = await inProject(
        "kbts",
        args.filter((a) => a !== "--skip-install"),
      );
      expect(r.exitCode, r.all).toBe(0);
    }
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.dependencies["@kbts/runtime"]).toBe("file:vendor/kbts/kbts-runtime-0.1.0.tgz");
    expect(pkg.devDependencies.kbts).toBe("file:vendor/kbts/kbts-0.1.0.tgz");
    // The vendored tarballs are the packages themselves, byte for byte what `make dist` packs.
    expect(readFileSync(join(project, "vendor/kbts/kbts-runtime-0.1.0.tgz"))).toEqual(
      readFileSync(kbts.tarballs.runtime),
    );
  });

  it("npm install works with an empty cache, and nothing points outside the project", async () => {
    const install = await npmInstall(project, { env: { PATH: kbts.env.PATH ?? "" } });
    expect(install.exitCode, install.all).toBe(0);
    const grep = await inProject("grep", ["-r", "file:/", "package.json", "package-lock.json"]);
    expect(grep.exitCode, `grep found file:/ links:\n${grep.all}`).toBe(1);
    expect(readFileSync(join(project, "package-lock.json"), "utf8")).toContain(
      '"resolved": "file:vendor/kbts/kbts-0.1.0.tgz"',
    );
    const ignored = readFileSync(join(project, ".gitignore"), "utf8");
    expect(ignored).not.toMatch(/^(vendor|package-lock\.json)/m);
  });

  it("make manifests runs the vendored kbts", async () => {
    // The project's own test suite runs in published.test.ts, on the path users take (npm i -g kbts):
    // the project is the same but for where kbts and @kbts/runtime come from, asserted above.
    const crd = join(project, "config/crd/bases/capacity.lab.example.com_gpubudgets.yaml");
    expect(existsSync(crd)).toBe(false);
    const manifests = await inProject("make", ["manifests"]);
    expect(manifests.exitCode, manifests.all).toBe(0);
    expect(realpathSync(join(project, "node_modules/.bin/kbts"))).toBe(
      join(project, "node_modules/kbts/bin/kbts.js"),
    );
    expect(readFileSync(crd, "utf8")).toContain("kind: CustomResourceDefinition");
  });
});

describe.sequential("the scaffolded Dockerfile's build context", () => {
  it("builds on a Node LTS image chosen by a build argument", () => {
    const dockerfile = readFileSync(join(project, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/^ARG NODE_VERSION=(22|24)$/m);
    expect(dockerfile.match(/^FROM node:\$\{NODE_VERSION\}-/gm)).toHaveLength(2);
  });

  it("holds the lockfile and the vendored tarballs, and no tests", async () => {
    const files = await contextFiles(project);
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "package-lock.json",
        "vendor/kbts/kbts-0.1.0.tgz",
        "vendor/kbts/kbts-runtime-0.1.0.tgz",
        "cmd/main.ts",
      ]),
    );
    expect(files.filter((f) => f.endsWith(".test.ts") || f.startsWith("node_modules/"))).toEqual([]);
  });

  it("runs its RUN steps with only what COPY brings in, and the manager starts", async () => {
    const image = await buildDockerfile(project, { root: join(work, "docker") });
    const [command = "", ...args] = image.entrypoint;
    expect(command).toBe("node");
    // The manager starts, finds no cluster (no kubeconfig, no service account) and says so.
    const run = await execa(process.execPath, args, {
      cwd: image.dir,
      env: { ...image.env, HOME: join(work, "docker") },
      extendEnv: false,
      all: true,
      reject: false,
      timeout: 60_000,
    });
    expect(run.exitCode, run.all).toBe(1);
    expect(run.all).toContain("no Kubernetes configuration found");
    expect(run.all).not.toMatch(/Cannot find (module|package)|ERR_MODULE_NOT_FOUND/);
  });

  for (const missing of ["package-lock.json", "vendor/kbts"]) {
    it(`fails naming ${missing} when it is not in the context`, async () => {
      const build = buildDockerfile(project, {
        root: join(work, `docker-no-${missing.replace("/", "-")}`),
        withhold: [missing],
      });
      await expect(build).rejects.toThrow(DockerBuildError);
      await expect(build).rejects.toThrow(
        new RegExp(`COPY .*: ${missing.replace(".", "\\.")}/? not found in the build context`),
      );
    });
  }
});
