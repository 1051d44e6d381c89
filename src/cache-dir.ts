import { join } from "node:path";

/**
 * kbts' folder in the user's cache ($XDG_CACHE_HOME, else ~/.cache): the control-plane binaries it
 * builds, the controller-gen oracle, and V8's code for its own bundles where Node keeps none.
 */
export function kbtsCacheDir(env: Record<string, string | undefined> = process.env): string {
  // node:os only without $HOME: the CLI's bundles import this file, and loading os costs every start.
  const cache =
    env.XDG_CACHE_HOME || join(env.HOME || process.getBuiltinModule("node:os").homedir(), ".cache");
  return join(cache, "kbts");
}
