import { describe, expect, it } from "vitest";
import { EnvtestError } from "./errors.js";
import { checkNodes, nodeObject, nodesFromEnv, parseNodeCapacity, simulatedNodes } from "./nodes.js";

describe("parseNodeCapacity", () => {
  it("reads resource=quantity pairs, extended resources included", () => {
    expect(parseNodeCapacity("nvidia.com/gpu=8,cpu=32,memory=256Gi")).toEqual({
      "nvidia.com/gpu": "8",
      cpu: "32",
      memory: "256Gi",
    });
    expect(parseNodeCapacity(" cpu = 500m , ")).toEqual({ cpu: "500m" });
  });
  it("names where a bad pair came from and how to write it", () => {
    for (const bad of ["gpu", "nvidia.com/gpu=", "cpu=lots", "=8", "a b=1"]) {
      expect(() => parseNodeCapacity(bad, "--node-capacity")).toThrow(EnvtestError);
      expect(() => parseNodeCapacity(bad, "--node-capacity")).toThrow(/^--node-capacity: /);
    }
  });
});

describe("nodesFromEnv", () => {
  it("is off unless KBTS_ENVTEST_NODES is set", () => {
    expect(nodesFromEnv({})).toBeUndefined();
    expect(nodesFromEnv({ KBTS_ENVTEST_NODES: "" })).toBeUndefined();
  });
  it("makes that many nodes with the given capacity", () => {
    const nodes = nodesFromEnv({ KBTS_ENVTEST_NODES: "2", KBTS_ENVTEST_NODE_CAPACITY: "nvidia.com/gpu=4" });
    expect(nodes).toEqual([
      { name: "kwok-node-0", capacity: { "nvidia.com/gpu": "4" } },
      { name: "kwok-node-1", capacity: { "nvidia.com/gpu": "4" } },
    ]);
  });
  it("refuses a count that is not one, naming the variable", () => {
    expect(() => nodesFromEnv({ KBTS_ENVTEST_NODES: "two" })).toThrow(/KBTS_ENVTEST_NODES="two"/);
    expect(() => nodesFromEnv({ KBTS_ENVTEST_NODES: "0" })).toThrow(/KBTS_ENVTEST_NODES/);
    expect(() => nodesFromEnv({ KBTS_ENVTEST_NODES: "1", KBTS_ENVTEST_NODE_CAPACITY: "gpu" })).toThrow(
      /KBTS_ENVTEST_NODE_CAPACITY/,
    );
  });
});

describe("checkNodes", () => {
  it("accepts distinct, valid nodes", () => {
    expect(() => checkNodes(simulatedNodes(3, { "nvidia.com/gpu": "8" }))).not.toThrow();
  });
  it("refuses empty lists, bad or repeated names, bad quantities and envtest's own label", () => {
    expect(() => checkNodes([])).toThrow(/cluster.nodes is empty/);
    expect(() => checkNodes([{ name: "GPU_0" }])).toThrow(/cluster.nodes\[0\].name "GPU_0"/);
    expect(() => checkNodes([{ name: "a" }, { name: "a" }])).toThrow(
      /cluster.nodes\[1\].name "a" is used twice/,
    );
    expect(() => checkNodes([{ name: "a", capacity: { cpu: "many" } }])).toThrow(
      /cluster.nodes\[0\].capacity/,
    );
    expect(() => checkNodes([{ name: "a", labels: { "kwok.x-k8s.io/node": "x" } }])).toThrow(
      /cluster.nodes\[0\].labels/,
    );
  });
});

describe("nodeObject", () => {
  it("merges capacity over the defaults, allocatable equal, and marks the node for kwok", () => {
    const node = nodeObject({
      name: "gpu-0",
      capacity: { "nvidia.com/gpu": "8", cpu: "64" },
      labels: { pool: "a" },
    });
    expect(node).toMatchObject({
      metadata: {
        name: "gpu-0",
        labels: { pool: "a", "kwok.x-k8s.io/node": "fake", "kubernetes.io/hostname": "gpu-0" },
      },
      status: {
        capacity: { cpu: "64", memory: "256Gi", pods: "110", "nvidia.com/gpu": "8" },
        allocatable: { cpu: "64", memory: "256Gi", pods: "110", "nvidia.com/gpu": "8" },
      },
    });
  });
});
