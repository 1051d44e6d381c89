import type { Command } from "commander";
import { exitCleanlyOnSignals } from "../../process.js";

export function defineGenerate(cmd: Command): void {
  cmd
    .option("--paths <globs...>", "TypeScript files to scan (default: api/**/*.ts internal/**/*.ts)")
    .option(
      "--from-crd <file>",
      "a CustomResourceDefinition YAML file: write TypeScript interfaces and a Kind descriptor for each served version",
    )
    .option(
      "--output <dir>",
      "with --from-crd: the directory for the group's files, <dir>/<version>/<kind>_types.ts (default: api/external/<group>)",
    )
    .option("--force", "with --from-crd: overwrite files there that kbts did not generate")
    .action(async (opts: { paths?: string[]; fromCrd?: string; output?: string; force?: boolean }) => {
      exitCleanlyOnSignals();
      if (opts.fromCrd === undefined) {
        if (opts.output !== undefined || opts.force) {
          const { KbtsError } = await import("../../errors.js");
          throw new KbtsError("--output and --force go with --from-crd", {
            where: opts.output !== undefined ? "--output" : "--force",
            fix: "add --from-crd <file>, or drop them",
          });
        }
        const { writeKinds } = await import("../../kinds/generate.js");
        const changed = await writeKinds({
          root: process.cwd(),
          ...(opts.paths ? { paths: opts.paths } : {}),
        });
        for (const f of changed) process.stdout.write(`wrote ${f}\n`);
        if (changed.length === 0) process.stdout.write("kind descriptors are up to date\n");
        return;
      }
      const { runGenerateFromCrd } = await import("../../kinds/from-crd.js");
      const changed = await runGenerateFromCrd(process.cwd(), opts.fromCrd, {
        output: opts.output,
        force: opts.force === true,
      });
      for (const f of changed) process.stdout.write(`wrote ${f}\n`);
      if (changed.length === 0) process.stdout.write(`types from ${opts.fromCrd} are up to date\n`);
    });
}
