import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inClusterNamespace, loadInClusterConfig, loadKubeConfig } from "./config.js";

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
      KUBERNETES_SERVICE_PORT: process.env.KUBERNETES_SERVICE_PORT,
      KBTS_SERVICE_ACCOUNT_DIR: process.env.KBTS_SERVICE_ACCOUNT_DIR,
      HOME: process.env.HOME,
    };
    delete process.env.KUBERNETES_SERVICE_HOST;
    delete process.env.KUBERNETES_SERVICE_PORT;
    delete process.env.KBTS_SERVICE_ACCOUNT_DIR;
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

  it("runs with a pod's identity from KBTS_SERVICE_ACCOUNT_DIR: service host and port, CA, token, namespace", async () => {
    delete process.env.KUBECONFIG;
    process.env.HOME = dir; // a ~/.kube/config must not win over the service account
    mkdirSync(join(dir, ".kube"));
    writeFileSync(join(dir, ".kube", "config"), kubeconfig("home", "https://127.0.0.1:5555"));
    const sa = join(dir, "sa");
    mkdirSync(sa);
    writeFileSync(join(sa, "token"), "sa-token-1");
    writeFileSync(join(sa, "ca.crt"), "not checked until a request");
    writeFileSync(join(sa, "namespace"), "ops-system\n");
    process.env.KBTS_SERVICE_ACCOUNT_DIR = sa;
    process.env.KUBERNETES_SERVICE_HOST = "fd00::1";
    process.env.KUBERNETES_SERVICE_PORT = "6443";
    const kc = loadKubeConfig();
    expect(kc.getCurrentCluster()?.server).toBe("https://[fd00::1]:6443");
    expect(kc.getCurrentCluster()?.caFile).toBe(join(sa, "ca.crt"));
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe("ops-system");
    expect(inClusterNamespace()).toBe("ops-system");
    const headers: Record<string, string> = {};
    const opts = { headers };
    await kc.applyToHTTPSOptions(opts);
    expect(opts.headers.Authorization ?? opts.headers.authorization).toBe("Bearer sa-token-1");
  });

  it("says which service-account file is missing", () => {
    process.env.KUBERNETES_SERVICE_HOST = "10.0.0.1";
    process.env.KUBERNETES_SERVICE_PORT = "443";
    writeFileSync(join(dir, "token"), "t");
    expect(() => loadInClusterConfig(dir)).toThrow(`${join(dir, "ca.crt")} does not exist`);
    delete process.env.KUBERNETES_SERVICE_PORT;
    expect(() => loadInClusterConfig(dir)).toThrow(/KUBERNETES_SERVICE_PORT/);
  });
});
