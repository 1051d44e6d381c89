import type { Command } from "commander";
import { exitCleanlyOnSignals } from "../interrupt.js";

export function defineGenerate(program: Command): void {
  program
    .command("generate")
    .description(
      "write typed Kind descriptors (api/<version>/zz_generated.kinds.ts) for the project's API types",
    )
    .option("--paths <globs...>", "TypeScript files to scan (default: api/**/*.ts internal/**/*.ts)")
    .action(async (opts: { paths?: string[] }) => {
      exitCleanlyOnSignals();
      const { writeKinds } = await import("../../kinds/generate.js");
      const changed = await writeKinds({ root: process.cwd(), ...(opts.paths ? { paths: opts.paths } : {}) });
      for (const f of changed) process.stdout.write(`wrote ${f}\n`);
      if (changed.length === 0) process.stdout.write("kind descriptors are up to date\n");
    });
}
