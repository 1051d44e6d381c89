/** Running the built CLI (bin/kbts.js) as a user types it. */
import { execa } from "execa";
import { KBTS } from "./paths.js";

/**
 * `kbts <args>` in `cwd` on the node running the tests, never throwing: the caller asserts on the exit
 * code and the whole output (`all`). `env` adds to the caller's environment.
 */
export function runKbts(args: string[], cwd: string, env: Record<string, string> = {}) {
  return execa(process.execPath, [KBTS, ...args], { cwd, env, reject: false, all: true });
}
