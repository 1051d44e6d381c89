import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { mutatingWebhookPath, webhookManagedBy } from "../builder/index.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import { createManager } from "../manager/index.js";
import { metricsRegistry } from "../metrics/registry.js";
import {
  AdmissionDenied,
  allowedResponse,
  type CustomDefaulter,
  type CustomValidator,
  createWebhookServer,
  type HttpsWebhookServer,
  serveAdmission,
} from "./index.js";

interface GPUBudget extends KubernetesObject {
  spec?: { maxGPUs?: number; owner?: string; team?: string; tier?: string };
}
const GPUBudget = defineKind<GPUBudget>({
  group: "capacity.lab.example.com",
  version: "v1",
  kind: "GPUBudget",
  plural: "gpubudgets",
  namespaced: true,
});

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const run = promisify(execFile);

function budget(name: string, spec: GPUBudget["spec"]): GPUBudget {
  return {
    apiVersion: "capacity.lab.example.com/v1",
    kind: "GPUBudget",
    metadata: { name, namespace: "default" },
    spec,
  };
}

describe("admission webhooks called by a real API server", () => {
  let env: Environment;
  let server: HttpsWebhookServer;
  let client: Client;
  const abort = new AbortController();
  let serving: Promise<void>;
  const deletes: string[] = [];

  const validator: CustomValidator<GPUBudget> = {
    async validateCreate(obj) {
      if (obj.spec?.owner === "mallory") throw new AdmissionDenied("owner mallory is not allowed");
      return (obj.spec?.maxGPUs ?? 0) > 8 ? ["budgets over 8 GPUs need approval"] : undefined;
    },
    async validateUpdate(oldObj, obj) {
      if ((obj.spec?.maxGPUs ?? 0) < (oldObj.spec?.maxGPUs ?? 0)) throw new Error("maxGPUs may not shrink");
    },
    async validateDelete(obj) {
      deletes.push(obj.metadata?.name ?? "");
    },
  };
  const defaulter: CustomDefaulter<GPUBudget> = {
    default(obj) {
      obj.spec ??= {};
      obj.spec.team ??= "team-default";
      obj.metadata ??= {};
      obj.metadata.labels = { ...obj.metadata.labels, "lab.example.com/defaulted": "true" };
    },
  };

  beforeAll(async () => {
    env = await startEnvironment({
      crdDirectoryPaths: [here("../fake/testdata")],
      webhookInstallOptions: { paths: [here("./testdata")] },
    });
    const w = env.webhookInstallOptions;
    if (!w) throw new Error("envtest did not prepare webhook serving");
    server = createWebhookServer({
      host: w.localServingHost,
      port: w.localServingPort,
      certDir: w.localServingCertDir,
    });
    webhookManagedBy({ getWebhookServer: () => server }, GPUBudget)
      .withValidator(validator)
      .withDefaulter(defaulter)
      .complete();
    serving = server.start(abort.signal);
    await server.started();
    client = createClient(env.kubeConfig);
  });

  afterAll(async () => {
    abort.abort();
    await serving;
    await env?.stop();
  });

  it("delivers the validator's denial message to the client", async () => {
    const message = await eventually("the validating webhook to deny", async () => {
      const err = await client.create(GPUBudget, budget("bad", { maxGPUs: 1, owner: "mallory" })).then(
        () => new Error("created"),
        (e: Error) => e,
      );
      if (err.message === "created") await client.delete(GPUBudget, budget("bad", {}));
      if (!err.message.includes("mallory")) throw err;
      return err.message;
    });
    expect(message).toBe(
      'admission webhook "vgpubudget.kb.io" denied the request: owner mallory is not allowed',
    );
  });

  it("delivers the denial, and the warnings of an allowed request, to kubectl", async () => {
    const kubectl = join(process.env.KUBEBUILDER_ASSETS ?? "/tmp/envtest-bin", "kubectl");
    const apply = (obj: GPUBudget) => {
      const p = run(kubectl, ["--kubeconfig", env.kubeconfigPath, "create", "-f", "-"], { encoding: "utf8" });
      p.child.stdin?.end(JSON.stringify(obj));
      return p;
    };
    const denied = await apply(budget("kubectl-bad", { maxGPUs: 1, owner: "mallory" })).then(
      () => "",
      (e: { stderr: string }) => e.stderr,
    );
    expect(denied).toContain(
      'admission webhook "vgpubudget.kb.io" denied the request: owner mallory is not allowed',
    );
    const ok = await apply(budget("kubectl-big", { maxGPUs: 16 }));
    expect(ok.stderr).toContain("Warning: budgets over 8 GPUs need approval");
    expect(ok.stdout).toContain("gpubudget.capacity.lab.example.com/kubectl-big created");
  });

  it("applies the defaulter's patch before the object is stored", async () => {
    const created = await client.create(GPUBudget, budget("defaulted", { maxGPUs: 2 }));
    expect(created.spec).toEqual({ maxGPUs: 2, team: "team-default", tier: "bronze" });
    expect(created.metadata?.labels).toEqual({ "lab.example.com/defaulted": "true" });
  });

  it("passes old and new objects on update and the old object on delete", async () => {
    const created = await client.create(GPUBudget, budget("shrink", { maxGPUs: 4 }));
    const err = await client
      .update(GPUBudget, { ...created, spec: { ...created.spec, maxGPUs: 2 } })
      .catch((e: Error) => e);
    expect((err as Error).message).toBe(
      'admission webhook "vgpubudget.kb.io" denied the request: maxGPUs may not shrink',
    );
    await client.delete(GPUBudget, created);
    expect(deletes).toContain("shrink");
  });

  it("counts the API server's calls per webhook path", async () => {
    const text = await metricsRegistry.metrics();
    const count = (path: string) =>
      Number(
        new RegExp(`controller_runtime_webhook_requests_total\\{webhook="${path}",code="200"\\} (\\d+)`).exec(
          text,
        )?.[1] ?? 0,
      );
    expect(count("/validate-capacity-lab-example-com-v1-gpubudget")).toBeGreaterThanOrEqual(5);
    expect(count("/mutate-capacity-lab-example-com-v1-gpubudget")).toBeGreaterThanOrEqual(3);
  });
});

describe("admission webhooks registered on a manager", () => {
  it("are served by the manager's webhook server once it starts, over HTTP/2 with enableHTTP2", async () => {
    const env = await startEnvironment({
      crdDirectoryPaths: [here("../fake/testdata")],
      webhookInstallOptions: { paths: [here("./testdata")] },
    });
    const abort = new AbortController();
    let running: Promise<void> | undefined;
    try {
      const w = env.webhookInstallOptions;
      if (!w) throw new Error("envtest did not prepare webhook serving");
      const mgr = createManager({
        kubeConfig: env.kubeConfig,
        metricsBindAddress: "0",
        healthProbeBindAddress: "0",
        enableHTTP2: true,
        webhookServer: { host: w.localServingHost, port: w.localServingPort, certDir: w.localServingCertDir },
      });
      // The installed configuration also calls /mutate-...: a raw handler there records the protocol
      // the API server's webhook client negotiated (Go's net/http picks h2 when the server offers it).
      const versions: string[] = [];
      const mutatePath = mutatingWebhookPath(GPUBudget);
      const allowAll = serveAdmission(mutatePath, () => allowedResponse());
      mgr.getWebhookServer().register(mutatePath, (req, res) => {
        versions.push(req.httpVersion);
        return allowAll(req, res);
      });
      webhookManagedBy(mgr, GPUBudget)
        .withValidator({
          validateCreate: async (obj) => {
            if (obj.spec?.owner === "mallory") throw new Error("no mallory via the manager");
          },
          validateUpdate: async () => undefined,
          validateDelete: async () => undefined,
        })
        .complete();
      running = mgr.start(abort.signal);
      await mgr.getWebhookServer().started();
      const client = createClient(env.kubeConfig);
      const message = await eventually("the manager's webhook to deny", async () => {
        const err = await client.create(GPUBudget, budget("via-mgr", { maxGPUs: 1, owner: "mallory" })).then(
          () => new Error("created"),
          (e: Error) => e,
        );
        if (err.message === "created") await client.delete(GPUBudget, budget("via-mgr", {}));
        if (!err.message.includes("mallory")) throw err;
        return err.message;
      });
      expect(message).toBe(
        'admission webhook "vgpubudget.kb.io" denied the request: no mallory via the manager',
      );
      expect(versions.length).toBeGreaterThan(0);
      expect(new Set(versions)).toEqual(new Set(["2.0"]));
    } finally {
      abort.abort();
      await running;
      await env.stop();
    }
  });
});
