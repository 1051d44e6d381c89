/** Running a project's Makefile targets, as a user or CI does. */
import { execa } from "execa";

/**
 * `make <targets>` in a project, never throwing: the caller asserts on the exit code and the whole
 * output (`all`). `env` adds to the caller's environment (a key set to undefined is left out). By default
 * it runs as CI does (CI=true, which makes `make manifests` strict, and no colors); `ci: false` runs it
 * as a user at a terminal does.
 */
export function runMake(
  project: string,
  targets: string | string[],
  env: Record<string, string | undefined> = {},
  { ci = true }: { ci?: boolean } = {},
) {
  return execa("make", typeof targets === "string" ? [targets] : targets, {
    cwd: project,
    reject: false,
    all: true,
    env: { ...(ci ? { CI: "true", FORCE_COLOR: "0", NO_COLOR: "1" } : {}), ...env },
  });
}
