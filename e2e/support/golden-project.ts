import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { npmInstall } from "./npm.js";
import { REPO } from "./paths.js";

/**
 * A golden project (testdata/<name>) copied to `dir`, with @kbts/runtime and kbts linked to this
 * checkout (as `kbts init --runtime link` writes them), then installed with an npm cache of its own.
 * Returns npm's exit code and output for the caller's assertion.
 */
export async function installGoldenProject(
  name: string,
  dir: string,
): Promise<{ exitCode: number | undefined; all: string }> {
  cpSync(join(REPO, "testdata", name), dir, { recursive: true });
  const pkgPath = join(dir, "package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  pkg.dependencies["@kbts/runtime"] = `file:${join(REPO, "runtime")}`;
  pkg.devDependencies.kbts = `file:${REPO.replace(/\/$/, "")}`;
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  return npmInstall(dir);
}

/**
 * `make <target>` in a project, as CI runs it (no colors), never throwing: the caller asserts on the
 * exit code and the whole output (`all`). `env` adds to the caller's environment.
 */
export function runMake(project: string, target: string, env: Record<string, string> = {}) {
  return execa("make", [target], {
    cwd: project,
    reject: false,
    all: true,
    env: { CI: "true", FORCE_COLOR: "0", NO_COLOR: "1", ...env },
  });
}
