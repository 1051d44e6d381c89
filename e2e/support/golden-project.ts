import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installDependencies } from "./installs.js";
import type { NpmResult } from "./npm.js";
import { REPO } from "./paths.js";

/**
 * A golden project (testdata/<name>) copied to `dir`, with @kbts/runtime and kbts linked to this
 * checkout (as `kbts init --runtime link` writes them), then its dependencies installed
 * (e2e/support/installs.ts).
 * Returns npm's exit code and output for the caller's assertion.
 */
export async function installGoldenProject(name: string, dir: string): Promise<NpmResult> {
  cpSync(join(REPO, "testdata", name), dir, { recursive: true });
  const pkgPath = join(dir, "package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  pkg.dependencies["@kbts/runtime"] = `file:${join(REPO, "runtime")}`;
  pkg.devDependencies.kbts = `file:${REPO.replace(/\/$/, "")}`;
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  return installDependencies(dir);
}
