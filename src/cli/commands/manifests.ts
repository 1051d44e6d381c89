import type { Command } from "commander";
import { DEFAULT_CRD_OUTPUT, DEFAULT_ROLE_NAME } from "../../manifests/defaults.js";
import type { ManifestsFlags } from "../../manifests/flags.js";
import { exitCleanlyOnSignals } from "../../process.js";

export function defineManifests(cmd: Command): void {
  cmd
    .option("--paths <globs...>", "TypeScript files to scan (default: api/**/*.ts internal/**/*.ts)")
    .option("--crd-output <dir>", "directory for CRDs", DEFAULT_CRD_OUTPUT)
    .option("--role-name <name>", "name of the generated ClusterRole/Role", DEFAULT_ROLE_NAME)
    .option(
      "--allow-dangerous-types",
      "allow float fields (number, float64), as controller-gen's crd:allowDangerousTypes",
    )
    .option("--check", "write nothing; exit 1 with a diff when a generated file is stale")
    .option(
      "--strict",
      "treat warnings (unknown or misspelt markers) as errors; `make manifests` sets it when CI=true",
    )
    .option(
      "--breaking-since <git-ref>",
      "write nothing; compare today's CRDs with those generated at <git-ref> and exit 1 on a breaking change",
    )
    .option(
      "--check-rbac",
      "write nothing; compare the permissions the code uses with the rbac markers (exit 1 when one is missing)",
    )
    .option(
      "--explain-rbac",
      "write nothing; list each permission the rbac markers grant, the code that uses it, the +kbts:guard that narrows it, and unguarded cluster-wide writes",
    )
    .option("--watch", "regenerate on every save of a scanned (or imported) file until Ctrl-C")
    .option("--no-cache", "generate even when nothing changed since the last run (node_modules/.cache/kbts)")
    .option("--list-markers", "print every marker kbts understands, with its arguments, and exit")
    .action(
      async (
        opts: ManifestsFlags & {
          listMarkers?: boolean;
          breakingSince?: string;
          checkRbac?: boolean;
          explainRbac?: boolean;
        },
      ) => {
        if (opts.listMarkers) {
          const { markerHelp } = await import("../../markers/help.js");
          const { registry } = await import("../../manifests/generators.js");
          process.stdout.write(`${markerHelp(registry)}\n`);
          return;
        }
        // --watch stops on Ctrl-C itself (runManifests); a run is committed in one synchronous step.
        if (!opts.watch) exitCleanlyOnSignals();
        if (opts.breakingSince !== undefined) {
          const { runBreakingSince } = await import("../../breaking/command.js");
          await runBreakingSince({
            root: process.cwd(),
            since: opts.breakingSince,
            ...(opts.paths ? { paths: opts.paths } : {}),
            ...(opts.crdOutput ? { crdOutput: opts.crdOutput } : {}),
            allowDangerousTypes: opts.allowDangerousTypes ?? false,
          });
          return;
        }
        if (opts.explainRbac) {
          const { explainRbac, formatExplanation } = await import("../../rbac/explain.js");
          const { registry } = await import("../../manifests/generators.js");
          const rules = await explainRbac({
            root: process.cwd(),
            markers: registry,
            ...(opts.paths ? { paths: opts.paths } : {}),
          });
          process.stdout.write(formatExplanation(rules));
          return;
        }
        if (opts.checkRbac) {
          const { runCheckRbac } = await import("../../rbac/check-command.js");
          const { registry } = await import("../../manifests/generators.js");
          await runCheckRbac(opts, registry);
          return;
        }
        const { runManifests } = await import("../../manifests/command.js");
        await runManifests(opts);
      },
    );
}
