/**
 * `tsc -p <dir>/tsconfig.json` (the projects' noEmit check) with the TypeScript a scaffolded project
 * gets: TypeScript 7, which kbts holds as `@typescript/native` (its `typescript` is TypeScript 6, for
 * the compiler API). A project takes it well under a second, so every check is the real command.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

/** The `tsc` of TypeScript 7 in kbts' node_modules. */
export const TSC = join(
  dirname(createRequire(import.meta.url).resolve("@typescript/native/package.json")),
  "bin/tsc",
);

/**
 * What `tsc -p tsconfig.json` prints for the project in `dir`; empty when tsc exits 0 (it exits
 * non-zero for any diagnostic: config, options, syntax, global or semantic).
 */
export function typecheckProject(project: string): string {
  const dir = resolve(project);
  const run = spawnSync(process.execPath, [TSC, "-p", join(dir, "tsconfig.json"), "--pretty", "false"], {
    cwd: dir,
    encoding: "utf8",
  });
  if (run.error) throw run.error;
  if (run.status === 0) return "";
  return `${run.stdout}${run.stderr}`.trim() || `tsc -p ${dir}/tsconfig.json exited ${run.status}`;
}
