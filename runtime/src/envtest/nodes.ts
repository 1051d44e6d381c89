import { EnvtestError } from "./errors.js";

/** A simulated node of envtest's cluster mode: kwok plays its kubelet (no containers run). */
export interface SimulatedNode {
  name: string;
  /** Resource → quantity, e.g. `{ cpu: "32", memory: "256Gi", "nvidia.com/gpu": "8" }`; merged over the defaults. */
  capacity?: Record<string, string>;
  labels?: Record<string, string>;
}

/** What a node has when its capacity does not say: a roomy machine that takes 110 pods, like a kubelet's default. */
export const DEFAULT_NODE_CAPACITY: Readonly<Record<string, string>> = {
  cpu: "32",
  memory: "256Gi",
  pods: "110",
};

/** The label kwok selects the nodes it plays by; a stopped node carries another value, so kwok lets go of it. */
export const KWOK_NODE_LABEL = "kwok.x-k8s.io/node";
export const KWOK_NODE_MANAGED = "fake";
export const KWOK_NODE_STOPPED = "stopped";

const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|[KMGTPE]i?|[mun]|k)?$/;
// A qualified name as Kubernetes accepts for resource names and label keys: optional DNS prefix, then a name.
const QUALIFIED_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const NODE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * `nvidia.com/gpu=8,cpu=32,memory=256Gi` → `{ "nvidia.com/gpu": "8", cpu: "32", memory: "256Gi" }`.
 * `where` names the variable the text came from, for the error (a CLI names its flag itself).
 */
export function parseNodeCapacity(text: string, where?: string): Record<string, string> {
  const capacity: Record<string, string> = {};
  for (const part of text.split(",").map((p) => p.trim())) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const name = eq < 0 ? part : part.slice(0, eq).trim();
    const quantity = eq < 0 ? "" : part.slice(eq + 1).trim();
    if (eq < 0 || !QUALIFIED_NAME.test(name) || !QUANTITY.test(quantity)) {
      throw new EnvtestError(`${where ? `${where}: ` : ""}"${part}" is not a resource=quantity pair`, {
        fix: "write it like nvidia.com/gpu=8,cpu=32,memory=256Gi",
      });
    }
    capacity[name] = quantity;
  }
  return capacity;
}

/** `count` nodes named kwok-node-0 … kwok-node-<count-1>, each with the same capacity. */
export function simulatedNodes(count: number, capacity: Record<string, string> = {}): SimulatedNode[] {
  return Array.from({ length: count }, (_, i) => ({ name: `kwok-node-${i}`, capacity: { ...capacity } }));
}

/**
 * Cluster mode asked for from the environment, so a scaffolded project's suite can opt in without code:
 * KBTS_ENVTEST_NODES=3 and optionally KBTS_ENVTEST_NODE_CAPACITY=nvidia.com/gpu=8,cpu=32.
 */
export function nodesFromEnv(
  env: Record<string, string | undefined> = process.env,
): SimulatedNode[] | undefined {
  const count = env.KBTS_ENVTEST_NODES;
  if (count === undefined || count === "") return undefined;
  const n = Number(count);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new EnvtestError(`KBTS_ENVTEST_NODES="${count}" is not a node count`, {
      fix: "set it to a whole number from 1 to 1000, or unset it for plain envtest",
    });
  }
  const capacity = env.KBTS_ENVTEST_NODE_CAPACITY
    ? parseNodeCapacity(env.KBTS_ENVTEST_NODE_CAPACITY, "KBTS_ENVTEST_NODE_CAPACITY")
    : {};
  return simulatedNodes(n, capacity);
}

/** Checks names (unique, DNS subdomains), capacities and labels before anything starts. */
export function checkNodes(nodes: SimulatedNode[]): void {
  if (nodes.length === 0) {
    throw new EnvtestError("cluster.nodes is empty", {
      fix: 'give at least one node, e.g. { name: "gpu-0" }',
    });
  }
  const seen = new Set<string>();
  for (const [i, node] of nodes.entries()) {
    const where = `cluster.nodes[${i}]`;
    if (!NODE_NAME.test(node.name ?? "") || node.name.length > 253) {
      throw new EnvtestError(`${where}.name "${node.name}" is not a valid node name`, {
        fix: "use lower-case letters, digits, '-' and '.', e.g. gpu-0",
      });
    }
    if (seen.has(node.name)) {
      throw new EnvtestError(`${where}.name "${node.name}" is used twice`, {
        fix: "give each node its own name",
      });
    }
    seen.add(node.name);
    for (const [name, quantity] of Object.entries(node.capacity ?? {})) {
      if (!QUALIFIED_NAME.test(name) || !QUANTITY.test(String(quantity))) {
        throw new EnvtestError(`${where}.capacity: "${name}: ${quantity}" is not a resource and quantity`, {
          fix: 'write capacity like { cpu: "32", "nvidia.com/gpu": "8" }',
        });
      }
    }
    for (const key of Object.keys(node.labels ?? {})) {
      if (!QUALIFIED_NAME.test(key) || key === KWOK_NODE_LABEL) {
        throw new EnvtestError(`${where}.labels: "${key}" is not a label key envtest can set`, {
          fix: `use a qualified name like example.com/pool (${KWOK_NODE_LABEL} is envtest's own)`,
        });
      }
    }
  }
}

/** The Node object kwok picks up: Node status may be set on create, as a kubelet registering itself does. */
export function nodeObject(node: SimulatedNode): Record<string, unknown> {
  const capacity = { ...DEFAULT_NODE_CAPACITY, ...node.capacity };
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name: node.name,
      labels: {
        "kubernetes.io/hostname": node.name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        type: "kwok",
        ...node.labels,
        [KWOK_NODE_LABEL]: KWOK_NODE_MANAGED,
      },
      annotations: { "node.alpha.kubernetes.io/ttl": "0" },
    },
    status: { capacity, allocatable: capacity },
  };
}
