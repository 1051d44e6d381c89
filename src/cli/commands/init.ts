import type { Command } from "commander";
import { exitCleanlyOnSignals } from "../../process.js";
import { collectList, printResult } from "../scaffold-flags.js";

// Declares `kbts init`; the scaffolding (templates, handlebars) loads only when it runs.
export function defineInit(cmd: Command): void {
  cmd
    .option("--domain <domain>", "domain for groups", "my.domain")
    .option("--repo <repo>", "name to use for the project's module path (default: the project name)")
    .option("--project-name <name>", "name of this project (default: the directory name)")
    .option("--owner <owner>", "owner to add to the copyright")
    .option(
      "--license <license>",
      "license to use to boilerplate, may be one of 'apache2', 'none'",
      "apache2",
    )
    .option(
      "--license-file <path>",
      "a file whose content (a comment block) is the license header of every generated file, instead of --license/--owner",
    )
    .option("--multigroup", "API groups in api/<group>/<version> (several groups in one project)")
    .option(
      "--namespaced",
      "a namespaced operator: watches only WATCH_NAMESPACE, with a Role/RoleBinding instead of cluster roles",
    )
    .option("--plugins <keys>", "plugin keys to be used for this subcommand execution", collectList, [])
    .option(
      "--runtime <spec>",
      "where the project gets kbts and @kbts/runtime: registry (default of a kbts installed from a registry), vendor (tarballs in vendor/kbts, default of a kbts installed from make dist's tarball), link (default from a checkout) or a version",
    )
    .option("--skip-install", "do not run `npm install` after scaffolding (you run it yourself)")
    .action(async (opts: Record<string, unknown>) => {
      exitCleanlyOnSignals();
      const { runInit } = await import("../../commands/init.js");
      const { readLicenseFile } = await import("../../commands/license.js");
      const { INSTALL_COMMAND, installDependencies } = await import("../../scaffold/install.js");
      const licenseFile = opts.licenseFile as string | undefined;
      const result = await runInit(process.cwd(), {
        licenseText: licenseFile === undefined ? undefined : readLicenseFile(licenseFile),
        licenseFile,
        domain: opts.domain as string,
        repo: opts.repo as string | undefined,
        projectName: opts.projectName as string | undefined,
        owner: opts.owner as string | undefined,
        license: opts.license as string,
        multigroup: opts.multigroup === true,
        namespaced: opts.namespaced === true,
        plugins: opts.plugins as string[],
        runtime: opts.runtime as string | undefined,
      });
      if (opts.skipInstall === true) {
        printResult({
          ...result,
          next: `Next: install the dependencies, then define a resource:\n$ ${INSTALL_COMMAND}\n$ kbts create api`,
        });
        return;
      }
      printResult({ ...result, next: `Installing dependencies: ${INSTALL_COMMAND}` });
      await installDependencies(process.cwd());
      process.stdout.write(`${result.next}\n`);
    });
}
