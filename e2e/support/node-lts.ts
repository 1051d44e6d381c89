/**
 * The Node.js a scaffolded project's image runs: the LTS the repository's Makefile pins
 * (NODE_LTS_VERSION, installed by e2e/tools/node-lts.sh into ~/.cache/kbts, as `make tools` does), or
 * NODE_LTS_BIN when set. Its major is the Dockerfile's NODE_VERSION.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { REPO } from "./paths.js";

/** NODE_LTS_VERSION of the repository's Makefile, e.g. "24.22.3". */
export function nodeLtsVersion(): string {
  const version = /^NODE_LTS_VERSION \?= (\S+)$/m.exec(readFileSync(join(REPO, "Makefile"), "utf8"))?.[1];
  if (version === undefined) throw new Error(`${join(REPO, "Makefile")}: no NODE_LTS_VERSION ?= line`);
  return version;
}

/** The bin directory (node, npm, npx) of that Node.js. */
export async function nodeLtsBin(): Promise<string> {
  if (process.env.NODE_LTS_BIN) return process.env.NODE_LTS_BIN;
  const r = await execa("bash", [join(REPO, "e2e/tools/node-lts.sh"), nodeLtsVersion()], {
    all: true,
    reject: false,
  });
  if (r.exitCode !== 0) throw new Error(`e2e/tools/node-lts.sh ${nodeLtsVersion()}: ${r.all}`);
  return r.stdout.trim();
}
