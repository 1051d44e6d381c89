import { KbtsError } from "../errors.js";

export interface ManifestsFlags {
  paths?: string[];
  crdOutput?: string;
  roleName?: string;
  allowDangerousTypes?: boolean;
  check?: boolean;
  strict?: boolean;
}

/** `kbts manifests`: generate (or check) CRDs, RBAC and webhook configuration in the current project. */
export async function runManifests(flags: ManifestsFlags, root = process.cwd()): Promise<void> {
  const started = performance.now();
  const { writeManifests } = await import("./write.js");
  const result = await writeManifests({
    root,
    ...(flags.paths ? { paths: flags.paths } : {}),
    ...(flags.crdOutput ? { crdOutput: flags.crdOutput } : {}),
    ...(flags.roleName ? { roleName: flags.roleName } : {}),
    allowDangerousTypes: flags.allowDangerousTypes ?? false,
    check: flags.check ?? false,
    strict: flags.strict ?? false,
  });
  for (const w of result.warnings) process.stderr.write(`warning: ${w.where}: ${w.message}\n`);
  const ms = Math.round(performance.now() - started);
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
    process.stdout.write(`manifests are up to date (${result.unchanged.length} files, ${ms}ms)\n`);
    return;
  }
  for (const f of result.changed) process.stdout.write(`wrote ${f}\n`);
  const warned = result.warnings.length;
  process.stdout.write(
    `${result.changed.length} written, ${result.unchanged.length} unchanged (${ms}ms)${warned ? `; ${warned} warning(s) above (--strict makes marker warnings errors)` : ""}\n`,
  );
}
