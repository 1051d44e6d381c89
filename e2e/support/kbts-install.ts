/**
 * kbts as a user gets it: this checkout packed (`make dist`'s two tarballs) and installed with
 * `npm install -g` into a prefix of its own, from the registry with an empty npm cache. Tests that
 * drive an installed kbts (no checkout, no `file:` links) start here.
 */
import { mkdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { packCheckout, type Tarballs } from "../../src/packaging/pack.js";
import { npmEnv, npmInstall } from "./npm.js";

export interface InstalledKbts {
  /** The packed tarballs, side by side in `<work>/dist`. */
  tarballs: Tarballs;
  /** The npm prefix kbts is installed into; `kbts` is `<prefix>/bin/kbts`. */
  prefix: string;
  bin: string;
  /** The environment of a user with this kbts first on PATH and an npm cache of their own. */
  env: Record<string, string>;
}

/** Packs this (built) checkout into `<work>/dist` and installs kbts globally into `<work>/prefix`. */
export async function installKbts(work: string, npmCache: string): Promise<InstalledKbts> {
  const dist = join(work, "dist");
  const prefix = join(work, "prefix");
  mkdirSync(prefix, { recursive: true });
  const tarballs = packCheckout(dist);
  // From the tarballs' directory, as a user who downloaded them would: `npm install -g ./kbts-<v>.tgz`.
  const install = await npmInstall(dist, {
    cache: npmCache,
    args: ["--global", "--prefix", prefix, `./${tarballs.kbts.slice(dist.length + 1)}`],
  });
  if (install.exitCode !== 0)
    throw new Error(`npm install -g kbts exited ${install.exitCode}:\n${install.all}`);
  const bin = join(prefix, "bin");
  return {
    tarballs,
    prefix,
    bin,
    env: { ...npmEnv(npmCache), PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` },
  };
}
