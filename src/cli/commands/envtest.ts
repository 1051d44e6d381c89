import type { Command } from "commander";

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function defineEnvtest(cmd: Command): void {
  cmd
    .command("start")
    .description(
      "start a control plane in the foreground and print how to use it; Ctrl-C or SIGTERM stops it",
    )
    .option("--crds <dir>", "install the CRDs in this file or directory (repeatable)", collect, [])
    .option("--kubeconfig <file>", "write the kubeconfig here (default: inside the control plane's temp dir)")
    .option(
      "--k8s-version <version>",
      "Kubernetes release of the binaries (default: the release kbts targets)",
    )
    .option("--port <port>", "secure port for kube-apiserver (default: a free port)")
    .option("--attach-output", "show etcd and kube-apiserver output")
    .option(
      "--nodes <count>",
      "cluster mode: also run kube-controller-manager, kube-scheduler and kwok with this many simulated nodes",
    )
    .option(
      "--node-capacity <resources>",
      "capacity of each simulated node, e.g. nvidia.com/gpu=8,cpu=32,memory=256Gi (default cpu=32,memory=256Gi,pods=110)",
    )
    .action(
      async (opts: {
        crds: string[];
        kubeconfig?: string;
        k8sVersion?: string;
        port?: string;
        attachOutput?: boolean;
        nodes?: string;
        nodeCapacity?: string;
      }) => {
        const { runEnvtestStart } = await import("../../envtest/start.js");
        await runEnvtestStart(opts);
      },
    );
}
