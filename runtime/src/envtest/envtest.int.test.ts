import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesMentioning, statOf } from "../internal/proc.js";
import { type Environment, EnvtestError, findBinary, startEnvironment } from "./index.js";
import { RawClient } from "./rest.js";

const testdata = join(import.meta.dirname, "testdata");
const widgets = "/apis/test.kbts.io/v1/namespaces/default/widgets";

/**
 * True once stillThere() is false, polled until a deadline: a SIGKILLed kube-apiserver takes a moment
 * to be torn down by the kernel after the signal is sent, and its temp dirs go after it.
 */
async function goneWithin(stillThere: () => boolean, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (stillThere()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** Whether a process with this pid is still alive (and not a zombie). */
function alive(pid: number): boolean {
  const p = statOf(pid);
  return p !== undefined && p.state !== "Z";
}

describe("startEnvironment with CRDs", () => {
  let env: Environment;
  let rest: RawClient;

  beforeAll(async () => {
    env = await startEnvironment({ crdDirectoryPaths: [join(testdata, "crds")] });
    rest = new RawClient(env.kubeConfig);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("serves every version of every CRD in the directory, skipping kustomize and non-manifest files", async () => {
    expect(env.crds.map((c) => c.metadata.name).sort()).toEqual([
      "gadgets.test.kbts.io",
      "widgets.test.kbts.io",
    ]);
    for (const gv of ["test.kbts.io/v1", "test.kbts.io/v1alpha1"]) {
      const res = await rest.call("GET", `/apis/${gv}`);
      expect(res.status).toBe(200);
      const names = (res.body as { resources: { name: string }[] }).resources.map((r) => r.name);
      expect(names).toContain("gadgets");
    }
    const created = await rest.call("POST", widgets, widget("served", 1, 3));
    expect(created.status).toBe(201);
    const got = await rest.call("GET", `${widgets}/served`);
    expect((got.body as { spec: unknown }).spec).toEqual({ minReplicas: 1, maxReplicas: 3 });
  });

  it("writes a kubeconfig whose cluster, user and context are named envtest, for the admin user", async () => {
    const text = readFileSync(env.kubeconfigPath, "utf8");
    expect(text).toContain("current-context: envtest");
    expect(env.kubeConfig.getCurrentUser()?.name).toBe("envtest");
    // The admin (system:masters) may do anything, e.g. read secrets cluster-wide.
    const res = await rest.call("GET", "/api/v1/secrets");
    expect(res.status).toBe(200);
    const review = await rest.call("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", {
      apiVersion: "authentication.k8s.io/v1",
      kind: "SelfSubjectReview",
    });
    const user = (review.body as { status: { userInfo: { username: string; groups: string[] } } }).status
      .userInfo;
    expect(user.username).toBe("admin");
    expect(user.groups).toContain("system:masters");
  });

  it("rejects an object violating a CEL x-kubernetes-validations rule with the rule's message", async () => {
    const res = await rest.call("POST", widgets, widget("bad", 5, 2));
    expect(res.status).toBe(422);
    expect((res.body as { message: string }).message).toContain("minReplicas must not exceed maxReplicas");
  });

  it("ignores status in a main-resource update when the status subresource is on", async () => {
    await rest.call("POST", widgets, widget("status", 1, 2));
    const current = (await rest.call("GET", `${widgets}/status`)).body as Record<string, unknown>;
    const updated = await rest.call("PUT", `${widgets}/status`, { ...current, status: { phase: "Ready" } });
    expect(updated.status).toBe(200);
    expect((updated.body as { status?: unknown }).status).toBeUndefined();
    const viaSubresource = await rest.call("PUT", `${widgets}/status/status`, {
      ...(updated.body as object),
      status: { phase: "Ready" },
    });
    expect(viaSubresource.status).toBe(200);
    expect((viaSubresource.body as { status: unknown }).status).toEqual({ phase: "Ready" });
  });

  it("answers an update with a stale resourceVersion with 409 Conflict", async () => {
    const created = (await rest.call("POST", widgets, widget("stale", 1, 2))).body as Record<string, unknown>;
    const first = await rest.call("PUT", `${widgets}/stale`, {
      ...created,
      spec: { minReplicas: 2, maxReplicas: 2 },
    });
    expect(first.status).toBe(200);
    const second = await rest.call("PUT", `${widgets}/stale`, {
      ...created,
      spec: { minReplicas: 0, maxReplicas: 2 },
    });
    expect(second.status).toBe(409);
    expect((second.body as { reason: string }).reason).toBe("Conflict");
  });
});

describe("startEnvironment lifecycle", () => {
  it("stop() ends both process groups and removes every temp dir", async () => {
    const env = await startEnvironment({
      crds: [gadgetLike()],
      webhookInstallOptions: { paths: [join(testdata, "webhooks")] },
    });
    expect(env.pids).toHaveLength(2);
    expect(env.tempDirs.length).toBeGreaterThanOrEqual(3);
    for (const pid of env.pids) expect(alive(pid)).toBe(true);
    for (const dir of env.tempDirs) expect(existsSync(dir)).toBe(true);
    const certDir = env.webhookInstallOptions?.localServingCertDir ?? "";
    expect(existsSync(join(certDir, "tls.crt"))).toBe(true);
    await env.stop();
    await env.stop(); // a second stop (e.g. afterAll after a failed test already stopped it) is harmless
    for (const pid of env.pids) expect(alive(pid)).toBe(false);
    for (const dir of env.tempDirs) expect(existsSync(dir)).toBe(false);
    for (const dir of env.tempDirs) expect(processesMentioning(dir)).toEqual([]);
  });

  // SIGKILL (a test runner killing its worker) runs no code in the process: its children's watchdogs
  // (tether.ts) end them and remove their temp dirs.
  for (const how of ["SIGINT", "SIGTERM", "SIGHUP", "SIGKILL", "exit"] as const) {
    it(`leaves no process and no temp dir when its process ends by ${how} without stop()`, async () => {
      const child = spawn(process.execPath, ["--import", "tsx", join(testdata, "hold-environment.ts"), how], {
        cwd: join(import.meta.dirname, "..", "..", ".."),
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          if (out.includes("\n")) resolve(out.split("\n")[0] ?? "");
        });
        child.once("exit", (code) => reject(new Error(`child exited with ${code} before starting: ${out}`)));
      });
      const started = JSON.parse(line) as { pids: number[]; tempDirs: string[] };
      expect(started.pids).toHaveLength(2);
      if (how !== "exit") child.kill(how);
      await exited;
      // The watchdogs kill the binaries first and then remove the dirs, so the dirs may outlast them.
      for (const pid of started.pids) expect(await goneWithin(() => alive(pid))).toBe(true);
      for (const dir of started.tempDirs) expect(await goneWithin(() => existsSync(dir)), dir).toBe(true);
    });
  }

  it("retries start-up with new ports when a port is taken (address already in use)", async () => {
    // An etcd that fails like a port clash on its first start, then runs the real etcd.
    const dir = mkdtempSync(join(tmpdir(), "kbts-envtest-clash-"));
    const realEtcd = findBinary("etcd");
    const wrapper = join(dir, "etcd");
    writeFileSync(
      wrapper,
      `#!/bin/sh\nif [ ! -e "${dir}/tried" ]; then touch "${dir}/tried"; echo "listen tcp 127.0.0.1:1: bind: address already in use" >&2; exit 1; fi\nexec "${realEtcd}" "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    const saved = process.env.TEST_ASSET_ETCD;
    process.env.TEST_ASSET_ETCD = wrapper;
    try {
      const env = await startEnvironment();
      expect(existsSync(join(dir, "tried"))).toBe(true);
      expect(env.timings.attempts).toBe(2);
      await env.stop();
    } finally {
      if (saved === undefined) delete process.env.TEST_ASSET_ETCD;
      else process.env.TEST_ASSET_ETCD = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("uses the current kubeconfig with useExistingCluster, installing CRDs there and leaving it running", async () => {
    const cluster = await startEnvironment();
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = cluster.kubeconfigPath;
    try {
      const env = await startEnvironment({
        useExistingCluster: true,
        crdDirectoryPaths: [join(testdata, "crds")],
      });
      expect(env.kubeconfigPath).toBe(cluster.kubeconfigPath);
      expect(env.pids).toEqual([]);
      await env.stop();
      const res = await new RawClient(cluster.kubeConfig).call("GET", "/apis/test.kbts.io/v1");
      expect(res.status).toBe(200);
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
      await cluster.stop();
    }
  });

  it("rewrites webhook client configs to the local serving host, port and CA", async () => {
    const env = await startEnvironment({ webhookInstallOptions: { paths: [join(testdata, "webhooks")] } });
    try {
      const w = env.webhookInstallOptions;
      expect(w?.localServingHost).toBe("127.0.0.1");
      const rest = new RawClient(env.kubeConfig);
      const res = await rest.call(
        "GET",
        "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/validating-webhook-configuration",
      );
      const cc = (res.body as { webhooks: { clientConfig: { url: string; caBundle: string } }[] }).webhooks[0]
        ?.clientConfig;
      expect(cc?.url).toBe(`https://127.0.0.1:${w?.localServingPort}/validate-test-kbts-io-v1-widget`);
      expect(Buffer.from(cc?.caBundle ?? "", "base64").toString()).toBe(w?.caData);
      const mutating = await rest.call(
        "GET",
        "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
      );
      expect((mutating.body as { items: unknown[] }).items).toHaveLength(1);
    } finally {
      await env.stop();
    }
  });

  it("fails with one clear error and starts nothing when a CRD path is missing", async () => {
    const missing = join(testdata, "no-such-dir");
    await expect(startEnvironment({ crdDirectoryPaths: [missing] })).rejects.toBeInstanceOf(EnvtestError);
    await expect(startEnvironment({ crdDirectoryPaths: [missing] })).rejects.toThrow(
      `CRD path ${missing} does not exist`,
    );
  });

  it("fails naming the file and the kind when a YAML is not a CRD", async () => {
    const file = join(testdata, "not-crd", "configmap.yaml");
    await expect(startEnvironment({ crdDirectoryPaths: [join(testdata, "not-crd")] })).rejects.toThrow(
      `${file}:1: a ConfigMap, not a CustomResourceDefinition`,
    );
  });

  it("stops the control plane again when the API server rejects a CRD", async () => {
    const broken = gadgetLike();
    broken.spec.versions = [{ name: "v1", served: true, storage: false }]; // no storage version: invalid
    // A TMPDIR of its own tells this environment's dirs and processes apart from other tests'.
    const tmp = mkdtempSync(join(tmpdir(), "kbts-envtest-reject-"));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      await expect(startEnvironment({ crds: [broken] })).rejects.toThrow(
        /crds\[0\]: the API server rejected CustomResourceDefinition things.other.kbts.io: .*storage/,
      );
    } finally {
      process.env.TMPDIR = saved;
    }
    expect(processesMentioning(tmp)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
    rmSync(tmp, { recursive: true, force: true });
  });
});

function widget(name: string, minReplicas: number, maxReplicas: number) {
  return {
    apiVersion: "test.kbts.io/v1",
    kind: "Widget",
    metadata: { name },
    spec: { minReplicas, maxReplicas },
  };
}

function gadgetLike() {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "things.other.kbts.io" },
    spec: {
      group: "other.kbts.io",
      names: { kind: "Thing", plural: "things" },
      scope: "Namespaced",
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
        } as { name: string; served: boolean; [k: string]: unknown },
      ],
    },
  };
}
