import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadKubeConfig } from "./config.js";

function kubeconfig(cluster: string, server: string, context = cluster): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: ${cluster}
  cluster:
    server: ${server}
users:
- name: ${cluster}-user
  user:
    token: t-${cluster}
contexts:
- name: ${context}
  context:
    cluster: ${cluster}
    user: ${cluster}-user
current-context: ${context}
`;
}

describe("loadKubeConfig", () => {
  let dir: string;
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "kbts-kubeconfig-"));
    saved = {
      KUBECONFIG: process.env.KUBECONFIG,
      KUBERNETES_SERVICE_HOST: process.env.KUBERNETES_SERVICE_HOST,
      HOME: process.env.HOME,
    };
    delete process.env.KUBERNETES_SERVICE_HOST;
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads KUBECONFIG, merging several files with the first one's current context winning", () => {
    const a = join(dir, "a");
    const b = join(dir, "b");
    writeFileSync(a, kubeconfig("one", "https://127.0.0.1:6443"));
    writeFileSync(b, kubeconfig("two", "https://127.0.0.1:7443"));
    process.env.KUBECONFIG = [a, b].join(delimiter);
    const kc = loadKubeConfig();
    expect(kc.getCurrentContext()).toBe("one");
    expect(
      kc
        .getContexts()
        .map((c) => c.name)
        .sort(),
    ).toEqual(["one", "two"]);
    expect(loadKubeConfig({ context: "two" }).getCurrentCluster()?.server).toBe("https://127.0.0.1:7443");
  });

  it("prefers an explicit path", () => {
    const a = join(dir, "a");
    writeFileSync(a, kubeconfig("explicit", "https://127.0.0.1:1234"));
    process.env.KUBECONFIG = join(dir, "does-not-matter");
    expect(loadKubeConfig({ path: a }).getCurrentCluster()?.server).toBe("https://127.0.0.1:1234");
  });

  it("falls back to ~/.kube/config, and explains when nothing is found", () => {
    delete process.env.KUBECONFIG;
    process.env.HOME = dir;
    expect(() => loadKubeConfig()).toThrow(/no Kubernetes configuration found: set KUBECONFIG/);
    const kube = join(dir, ".kube");
    mkdirSync(kube);
    writeFileSync(join(kube, "config"), kubeconfig("home", "https://127.0.0.1:5555"));
    expect(loadKubeConfig().getCurrentCluster()?.server).toBe("https://127.0.0.1:5555");
  });

  it("names the known contexts when asked for a missing one", () => {
    const a = join(dir, "a");
    writeFileSync(a, kubeconfig("one", "https://127.0.0.1:6443"));
    expect(() => loadKubeConfig({ path: a, context: "prod" })).toThrow(
      'kubeconfig has no context "prod"; known contexts: one',
    );
  });
});
