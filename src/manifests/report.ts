import { KbtsError } from "../errors.js";
import type { ManifestsFlags } from "./flags.js";
import type { WriteResult } from "./write.js";

/** Where a run's lines go: stdout and stderr for the CLI. */
export interface Output {
  log: (line: string) => void;
  error: (line: string) => void;
}

export const STDIO: Output = {
  log: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
};

/** Prints a run's outcome; with --check, throws when a file is stale. */
export function report(
  flags: ManifestsFlags,
  result: WriteResult,
  ms: number,
  cached: boolean,
  out: Output = STDIO,
): void {
  for (const w of result.warnings) out.error(`warning: ${w.where}: ${w.message}`);
  const took = `${ms}ms${cached ? ", inputs unchanged since the last run" : ""}`;
  if (flags.check) {
    if (result.changed.length > 0) {
      for (const d of result.diffs) process.stderr.write(d);
      throw new KbtsError(
        `${result.changed.length} generated file(s) are stale: ${result.changed.join(", ")}`,
        {
          fix: "run `kbts manifests` and commit the result",
        },
      );
    }
    out.log(`manifests are up to date (${result.unchanged.length} files, ${took})`);
    return;
  }
  for (const f of result.changed) out.log(`wrote ${f}`);
  const warned = result.warnings.length;
  out.log(
    `${result.changed.length} written, ${result.unchanged.length} unchanged (${took})${warned ? `; ${warned} warning(s) above (--strict makes marker warnings errors)` : ""}`,
  );
}
