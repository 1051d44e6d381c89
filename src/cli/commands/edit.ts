import type { Command } from "commander";
import { exitCleanlyOnSignals } from "../../process.js";
import { collectList, flagBool, parseBool, printResult } from "../scaffold-flags.js";

// Declares `kbts edit`; the implementation loads only when it runs.
export function defineEdit(cmd: Command): void {
  cmd
    .option(
      "--multigroup [bool]",
      "API groups in api/<group>/<version> (--multigroup=false: back to api/<version>); existing code is moved by hand",
      parseBool,
    )
    .option(
      "--namespaced [bool]",
      "watch only WATCH_NAMESPACE with a Role/RoleBinding (--namespaced=false: back to cluster-wide); carries the change into config, cmd/main.ts and the controllers' RBAC markers",
      parseBool,
    )
    .option(
      "--license <license>",
      "license of the new header, one of 'apache2', 'MIT', 'copyright', 'none': it goes into hack/boilerplate.ts.txt and replaces the old header on every file that still has it (default: the project's current license)",
    )
    .option("--owner <owner>", "owner to add to the copyright (default: the project's current owner)")
    .option(
      "--license-file <path>",
      "a file whose content (a comment block) is the new license header, instead of --license/--owner",
    )
    .option(
      "--plugins <keys>",
      "plugins whose edit runs: helm/v2-alpha (a Helm chart), grafana/v1-alpha (Grafana dashboards), autoupdate/v1-alpha (a weekly GitHub workflow running kbts alpha update)",
      collectList,
      [],
    )
    .option(
      "--force",
      "--namespaced: overwrite scaffolded config files whose edits overlap the change (code is never overwritten); helm/v2-alpha: regenerate values.yaml and the other files you may have edited (never Chart.yaml); grafana/v1-alpha always regenerates its dashboards and never grafana/custom-metrics/config.yaml; autoupdate/v1-alpha: rewrite .github/workflows/auto_update.yml",
    )
    .option(
      "--manifests <file>",
      "helm/v2-alpha: the kustomize output to build the chart from (default dist/install.yaml)",
    )
    .option("--output-dir <dir>", "helm/v2-alpha: the chart goes in <dir>/chart (default dist)")
    .action(async (opts: Record<string, unknown>) => {
      exitCleanlyOnSignals();
      const { runEdit } = await import("../../commands/edit.js");
      const setting = (v: unknown) => (v === undefined ? undefined : flagBool(v, true));
      printResult(
        await runEdit(process.cwd(), {
          multigroup: setting(opts.multigroup),
          namespaced: setting(opts.namespaced),
          plugins: opts.plugins as string[],
          force: opts.force === true,
          manifests: opts.manifests as string | undefined,
          outputDir: opts.outputDir as string | undefined,
          license: opts.license as string | undefined,
          owner: opts.owner as string | undefined,
          licenseFile: opts.licenseFile as string | undefined,
        }),
      );
    });
}
