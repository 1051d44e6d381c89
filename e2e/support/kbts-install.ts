/**
 * kbts as a user gets it, installed with `npm install -g` into a prefix of its own with an empty npm
 * cache: either this checkout packed (`make dist`'s two tarballs, for offline use) and installed from
 * the tarball, or this checkout published (`npm publish` of both packages) to a registry and installed
 * by name (`npm i -g kbts`). Tests that drive an installed kbts (no checkout, no `file:` links) start here.
 */
import { mkdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { execa } from "execa";
import { packCheckout, type Tarballs } from "../../src/packaging/pack.js";
import { type NpmResult, npmEnv, npmInstall, withEmptyNpmCache } from "./npm.js";
import { REPO } from "./paths.js";

/** kbts installed into a prefix of its own. */
export interface KbtsOnPath {
  /** The npm prefix kbts is installed into; `kbts` is `<prefix>/bin/kbts`. */
  prefix: string;
  bin: string;
  /** The environment of a user with this kbts first on PATH and an npm cache of their own. */
  env: Record<string, string>;
}

/** kbts installed from `make dist`'s tarball. */
export interface InstalledKbts extends KbtsOnPath {
  /** The packed tarballs, side by side in `<work>/dist`. */
  tarballs: Tarballs;
}

/** `npm install -g SPEC` (run in `cwd`) into `<work>/prefix`; throws with npm's output when it fails. */
async function installGlobally(
  work: string,
  cwd: string,
  spec: string,
  npmCache: string,
  env: Record<string, string>,
): Promise<KbtsOnPath> {
  const prefix = join(work, "prefix");
  mkdirSync(prefix, { recursive: true });
  const install = await npmInstall(cwd, {
    cache: npmCache,
    args: ["--global", "--prefix", prefix, spec],
    env,
  });
  if (install.exitCode !== 0)
    throw new Error(`npm install -g ${spec} exited ${install.exitCode}:\n${install.all}`);
  const bin = join(prefix, "bin");
  return {
    prefix,
    bin,
    env: { ...npmEnv(npmCache), ...env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` },
  };
}

/** Packs this (built) checkout into `<work>/dist` and installs kbts globally into `<work>/prefix`. */
export async function installKbts(work: string, npmCache: string): Promise<InstalledKbts> {
  const dist = join(work, "dist");
  const tarballs = packCheckout(dist);
  // From the tarballs' directory, as a user who downloaded them would: `npm install -g ./kbts-<v>.tgz`.
  const onPath = await installGlobally(work, dist, `./${tarballs.kbts.slice(dist.length + 1)}`, npmCache, {});
  return { ...onPath, tarballs };
}

/**
 * `npm publish` of this (built) checkout's two packages, as a release does: @kbts/runtime first (kbts
 * depends on it by version), each package's `prepack` building it. `registryEnv` names the registry
 * and a userconfig that may publish there. Never throws: the caller asserts on the exit code and output.
 */
export async function publishCheckout(registryEnv: Record<string, string>): Promise<NpmResult> {
  return withEmptyNpmCache(async (cache) => {
    let all = "";
    for (const args of [["--workspace", "runtime"], []]) {
      const publish = await execa("npm", ["publish", ...args], {
        cwd: REPO,
        env: { ...npmEnv(cache), ...registryEnv },
        all: true,
        reject: false,
        stdin: "ignore",
      });
      all += `$ npm publish ${args.join(" ")}\n${publish.all}\n`;
      if (publish.exitCode !== 0) return { exitCode: publish.exitCode, all };
    }
    return { exitCode: 0, all };
  });
}

/**
 * `npm i -g kbts` from the registry `registryEnv` names (kbts published there with
 * `publishCheckout`), run in `work`, into `<work>/prefix`. The returned environment keeps that
 * registry, so the projects this kbts scaffolds install from it too.
 */
export function installPublishedKbts(
  work: string,
  npmCache: string,
  registryEnv: Record<string, string>,
): Promise<KbtsOnPath> {
  return installGlobally(work, work, "kbts", npmCache, registryEnv);
}

/**
 * A runner of commands in `dir` with an installed kbts on PATH (and its npm cache and registry), read
 * when each command runs (the install happens in a beforeAll). Never throws: callers assert on the result.
 */
export function runInProject(dir: string, installed: () => KbtsOnPath) {
  return (file: string, args: string[], env: Record<string, string> = {}) =>
    execa(file, args, {
      cwd: dir,
      env: { ...installed().env, ...env },
      all: true,
      reject: false,
      stdin: "ignore",
    });
}
