import type { Command } from "commander";
import { KBTS_ROOT, KUBERNETES_VERSION, kbtsVersion } from "../../version.js";

export function defineVersion(cmd: Command): void {
  cmd.action(async () => {
    // Lazily, as every command's implementation: `kbts manifests` starts faster without it.
    const { kbtsInstall } = await import("../../packaging/pack.js");
    const from = kbtsInstall() === "checkout" ? "checkout" : "installed package";
    process.stdout.write(
      `kbts ${kbtsVersion()}\nfrom ${from} ${KBTS_ROOT}\nnode ${process.versions.node}\nkubernetes ${KUBERNETES_VERSION}\n`,
    );
  });
}
