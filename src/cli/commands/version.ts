import type { Command } from "commander";
import { KUBERNETES_VERSION, kbtsVersion } from "../../version.js";

export function defineVersion(program: Command): void {
  program
    .command("version")
    .description("print the kbts version, the Node.js version and the Kubernetes version kbts targets")
    .action(() => {
      process.stdout.write(
        `kbts ${kbtsVersion()}\nnode ${process.versions.node}\nkubernetes ${KUBERNETES_VERSION}\n`,
      );
    });
}
