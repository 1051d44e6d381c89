import { constants as osConstants } from "node:os";
import { resolve } from "node:path";
import {
  CLUSTER_BINARY_NAMES,
  type Environment,
  EnvtestError,
  parseNodeCapacity,
  type SimulatedNode,
  simulatedNodes,
  startEnvironment,
} from "@kbts/runtime/envtest";
import { KbtsError } from "../errors.js";
import { Progress } from "./progress.js";
import { setupEnvtest } from "./setup.js";

export interface StartOptions {
  crds: string[];
  kubeconfig?: string;
  k8sVersion?: string;
  port?: string;
  attachOutput?: boolean;
  /** Cluster mode: how many simulated nodes. */
  nodes?: string;
  /** Cluster mode: each node's capacity, `nvidia.com/gpu=8,cpu=32`. */
  nodeCapacity?: string;
}

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * `kbts envtest start`: the envtest control plane for people, until Ctrl-C, SIGTERM or SIGHUP, which all
 * stop it the same way (the child processes are tethered to this one, so even a SIGKILL leaves none).
 */
export async function runEnvtestStart(opts: StartOptions): Promise<void> {
  // This command owns the stop signals from its first step to its last, with listeners that stay. A
  // signal during start-up exits at once (the exit hook kills whatever has started and removes its temp
  // dirs); one while running stops gracefully; a repeat while stopping never falls through to another
  // listener. Without an owner, a signal during start-up was lost: the runtime's last-resort handler
  // leaves a signal to any other listener, and proper-lockfile's signal-exit (setup-envtest's store
  // lock) leaves it to any other listener too.
  let running = false;
  let requested: NodeJS.Signals | undefined;
  let onStopRequested: (signal: NodeJS.Signals) => void = () => {};
  const onSignal = (signal: NodeJS.Signals) => {
    if (!running) {
      process.stderr.write(`envtest: ${signal} while starting: stopped\n`);
      process.exit(128 + (osConstants.signals[signal] ?? 0));
    }
    if (requested === undefined) {
      requested = signal;
      onStopRequested(signal);
    } else if (signal === "SIGINT") {
      // A second Ctrl-C while stopping: exit at once (the exit hook still kills every process group).
      process.exit(130);
    }
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);

  const port = opts.port === undefined ? undefined : Number(opts.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    throw new KbtsError(`invalid port "${opts.port}"`, {
      where: "--port",
      fix: "use a number from 1 to 65535",
    });
  }
  const nodes = clusterNodes(opts);
  const binaries = await setupEnvtest({
    ...(opts.k8sVersion ? { version: opts.k8sVersion } : {}),
    ...(nodes ? { components: [...CLUSTER_BINARY_NAMES] } : {}),
    progress: new Progress(process.stderr, "envtest"),
  });

  let env: Environment;
  try {
    env = await startEnvironment({
      crdDirectoryPaths: opts.crds.map((c) => resolve(c)),
      binaryAssetsDirectory: binaries.dir,
      ...(opts.kubeconfig ? { kubeconfigPath: resolve(opts.kubeconfig) } : {}),
      ...(port !== undefined ? { apiServerPort: port } : {}),
      ...(opts.attachOutput ? { attachControlPlaneOutput: true } : {}),
      useExistingCluster: false,
      ...(nodes ? { cluster: { nodes } } : {}),
    });
  } catch (err) {
    if (err instanceof EnvtestError)
      throw new KbtsError(err.message, { where: flagFor(err.message), fix: err.fix ?? "" });
    throw err;
  }

  running = true;
  const stopped = new Promise<NodeJS.Signals>((done) => {
    onStopRequested = done;
  });
  const release = binaries.version ? `Kubernetes v${binaries.version}` : "Kubernetes";
  const crdNames = env.crds.map((c) => c.metadata.name).filter(Boolean);
  process.stdout.write(
    [
      `envtest: ${release} control plane is running at ${env.apiServerURL}`,
      `  etcd: ${env.etcdURL}`,
      `  CRDs: ${crdNames.length > 0 ? crdNames.join(", ") : "(none)"}`,
      ...(env.cluster
        ? [
            "  cluster mode: kube-controller-manager, kube-scheduler and kwok",
            `  nodes: ${describeNodes(nodes ?? [])}`,
          ]
        : []),
      "Point kubectl at it with:",
      `  export KUBECONFIG=${env.kubeconfigPath}`,
      `Stop it with Ctrl-C (or kill ${process.pid}); that also removes its temp dirs.`,
      "",
    ].join("\n"),
  );

  const ended = await Promise.race([stopped, env.crashed.then((message) => ({ crashed: message }))]);
  if (typeof ended === "object") {
    await env.stop();
    // A stop signal sent to more than this process (a whole process group or cgroup, pkill) also reaches
    // the children, and one of them may be seen to exit before this process sees its own signal: that is
    // the stop that was asked for, not a crash.
    if (requested === undefined) {
      throw new KbtsError(`the control plane stopped unexpectedly: ${ended.crashed}`, {
        fix: "rerun with --attach-output to see etcd and kube-apiserver logs",
      });
    }
  } else {
    process.stderr.write(
      `envtest: ${ended}: stopping ${env.cluster ? "kwok, kube-scheduler, kube-controller-manager, " : ""}kube-apiserver and etcd\n`,
    );
    await env.stop();
  }
  process.stderr.write("envtest: stopped; temp dirs removed\n");
}

/** --nodes/--node-capacity → the simulated nodes, or undefined for plain mode. */
export function clusterNodes(
  opts: Pick<StartOptions, "nodes" | "nodeCapacity">,
): SimulatedNode[] | undefined {
  if (opts.nodes === undefined) {
    if (opts.nodeCapacity !== undefined) {
      throw new KbtsError("--node-capacity needs --nodes", {
        where: "--node-capacity",
        fix: "add --nodes <count> to start cluster mode with that many nodes",
      });
    }
    return undefined;
  }
  const count = Number(opts.nodes);
  if (!(Number.isInteger(count) && count >= 1 && count <= 1000)) {
    throw new KbtsError(`invalid node count "${opts.nodes}"`, {
      where: "--nodes",
      fix: "use a whole number from 1 to 1000",
    });
  }
  let capacity: Record<string, string> = {};
  try {
    capacity = opts.nodeCapacity ? parseNodeCapacity(opts.nodeCapacity) : {};
  } catch (err) {
    if (err instanceof EnvtestError)
      throw new KbtsError(err.message, { where: "--node-capacity", fix: err.fix ?? "" });
    throw err;
  }
  return simulatedNodes(count, capacity);
}

function describeNodes(nodes: SimulatedNode[]): string {
  const capacity = Object.entries(nodes[0]?.capacity ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(",");
  return `${nodes.map((n) => n.name).join(", ")}${capacity ? ` (each ${capacity})` : ""}`;
}

function flagFor(message: string): string | undefined {
  if (message.startsWith("CRD path") || message.includes("CustomResourceDefinition")) return "--crds";
  if (message.startsWith("port ")) return "--port";
  return undefined;
}
