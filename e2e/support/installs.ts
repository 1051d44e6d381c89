/**
 * One real `npm install` per dependency set in an e2e run; every later project that asks for the same
 * packages gets a copy of that install's node_modules.
 *
 * Every project kbts scaffolds in a checkout asks for the same packages (the goldens' package.json
 * files differ only in their name), and about twenty e2e projects each ran `npm install` from the
 * registry with an empty cache: ~7 CPU-s apiece, a fifth of the e2e stage's CPU, to write the same
 * node_modules again. The first project with a set still installs it as a new user would
 * (e2e/support/npm.ts: the registry, an empty npm cache), so every run proves that install; the
 * files whose subject is npm install itself (scaffold, installed, published, the READMEs) call
 * npmInstall directly.
 *
 * The default export is the e2e projects' globalSetup: it gives the run a directory for the installs
 * and removes it when the run ends.
 */

import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import { eventually } from "./eventually.js";
import { type NpmResult, npmInstall } from "./npm.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The e2e run's directory of installs (installDependencies), one folder per dependency set. */
    e2eInstalls: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "kbts-e2e-installs-"));
  project.provide("e2eInstalls", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

/** The package.json fields that decide what npm installs into node_modules. */
const DEPENDENCY_FIELDS = [
  "dependencies",
  "devDependencies",
  "optionalDependencies",
  "peerDependencies",
  "overrides",
  "bundleDependencies",
  "workspaces",
] as const;

function dependencySet(projectDir: string): string {
  const pkg = JSON.parse(readFileSync(join(projectDir, "package.json"), "utf8")) as Record<string, unknown>;
  const wanted = Object.fromEntries(DEPENDENCY_FIELDS.map((f) => [f, pkg[f]]));
  // A project-level .npmrc can change the registry or how npm lays out node_modules.
  const npmrc = join(projectDir, ".npmrc");
  const config = existsSync(npmrc) ? readFileSync(npmrc, "utf8") : "";
  return createHash("sha256").update(JSON.stringify({ wanted, config })).digest("hex").slice(0, 16);
}

/**
 * Copies `from`/node_modules to `to`/node_modules. npm links a `file:` dependency with a symlink
 * relative to the project (node_modules/kbts -> ../../../work/main): such a link is re-made relative to
 * the new project, so it names the same directory. Links inside node_modules (.bin) copy as they are.
 */
export function copyNodeModules(from: string, to: string): void {
  const source = join(from, "node_modules");
  const target = join(to, "node_modules");
  cpSync(source, target, { recursive: true, verbatimSymlinks: true });
  const relink = (dir: string) => {
    for (const entry of readdirSync(join(source, dir), { withFileTypes: true })) {
      const name = join(dir, entry.name);
      if (entry.isDirectory() && entry.name.startsWith("@")) relink(name);
      if (!entry.isSymbolicLink()) continue;
      const link = readlinkSync(join(source, name));
      const pointsAt = isAbsolute(link) ? link : resolve(dirname(join(source, name)), link);
      if (!relative(source, pointsAt).startsWith("..")) continue;
      rmSync(join(target, name));
      symlinkSync(relative(dirname(join(target, name)), pointsAt), join(target, name));
    }
  };
  relink("");
}

/** `to`'s copy of `from`'s lockfile (and npm's hidden one), with `to`'s package name. */
export function copyLockfiles(from: string, to: string): void {
  const name = (JSON.parse(readFileSync(join(to, "package.json"), "utf8")) as { name?: string }).name;
  for (const file of ["package-lock.json", "node_modules/.package-lock.json"]) {
    if (!existsSync(join(from, file))) continue;
    const lock = JSON.parse(readFileSync(join(from, file), "utf8")) as {
      name?: string;
      packages?: Record<string, { name?: string }>;
    };
    lock.name = name;
    const root = lock.packages?.[""];
    if (root) root.name = name;
    writeFileSync(join(to, file), `${JSON.stringify(lock, null, 2)}\n`);
  }
}

/**
 * The dependencies of the project in `projectDir`: `npm install` (registry, empty npm cache) when no
 * project in this e2e run has installed the same set, else a copy of that install. Outside an e2e run
 * (no globalSetup), always npm install. Returns npm's exit code and output, as npmInstall does.
 */
export async function installDependencies(projectDir: string): Promise<NpmResult> {
  let installs: string | undefined;
  try {
    installs = inject("e2eInstalls");
  } catch {
    installs = undefined;
  }
  if (!installs) return npmInstall(projectDir);
  const set = join(installs, dependencySet(projectDir));
  const ready = join(set, "ready");
  const failed = join(set, "failed");
  try {
    mkdirSync(set); // the first project with this set installs it
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    // Another file is installing this set: wait for its node_modules (a slow registry took minutes).
    await eventually(
      "the e2e run's install of the same dependencies",
      () => (existsSync(ready) || existsSync(failed) ? true : undefined),
      900_000,
    );
    if (existsSync(failed)) return npmInstall(projectDir);
    copyNodeModules(join(set, "project"), projectDir);
    copyLockfiles(join(set, "project"), projectDir);
    return {
      exitCode: 0,
      all: `node_modules copied from this run's install of the same dependencies (${set})`,
    };
  }
  const result = await npmInstall(projectDir);
  try {
    if (result.exitCode !== 0) throw new Error(`npm install exited ${result.exitCode}`);
    const kept = join(set, "project");
    mkdirSync(kept);
    copyFileSync(join(projectDir, "package.json"), join(kept, "package.json"));
    copyNodeModules(projectDir, kept);
    copyLockfiles(projectDir, kept);
    writeFileSync(ready, projectDir);
  } catch (err) {
    // The files waiting for this set install it for themselves.
    writeFileSync(failed, String(err));
  }
  return result;
}
