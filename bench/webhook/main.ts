/**
 * What an admission call costs in the runtime's webhook server, and what the fake client's CRD
 * validation costs. Serves a validating and a defaulting webhook on 127.0.0.1 with a throw-away
 * certificate and sends N AdmissionReviews over one keep-alive TLS connection (p50/p99 round trip);
 * then times fake-client creates of a custom resource with schema + CEL validation.
 *
 *   npx tsx bench/webhook/main.ts [requests]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { percentile } from "../../e2e/support/stats.js";
import { CertificateAuthority } from "../../runtime/src/envtest/index.js";
import { createFakeClient } from "../../runtime/src/fake/index.js";
import {
  createWebhookServer,
  defineKind,
  type KubernetesObject,
  webhookManagedBy,
} from "../../runtime/src/index.js";

const N = Number(process.argv[2] ?? 2000);

interface Budget extends KubernetesObject {
  spec?: { maxGPUs?: number; minGPUs?: number; team?: string };
}
const GPUBudget = defineKind<Budget>({
  group: "capacity.lab.example.com",
  version: "v1",
  kind: "GPUBudget",
  plural: "gpubudgets",
  namespaced: true,
});

async function main(): Promise<void> {
  const ca = CertificateAuthority.create("bench");
  const pair = ca.issue({ commonName: "localhost", hosts: ["127.0.0.1"], usage: "server" });
  const dir = mkdtempSync(join(tmpdir(), "kbts-bench-webhook-"));
  writeFileSync(join(dir, "tls.crt"), pair.cert);
  writeFileSync(join(dir, "tls.key"), pair.key);
  const server = createWebhookServer({ port: 0, host: "127.0.0.1", certDir: dir });
  webhookManagedBy({ getWebhookServer: () => server }, GPUBudget)
    .withValidator({
      validateCreate: async (o) => ((o.spec?.maxGPUs ?? 0) > 8 ? ["big"] : undefined),
      validateUpdate: async () => undefined,
      validateDelete: async () => undefined,
    })
    .withDefaulter({
      default: (o) => {
        o.spec ??= {};
        o.spec.team ??= "team-default";
      },
    })
    .complete();
  const abort = new AbortController();
  const stopped = server.start(abort.signal);
  await server.started();
  const port = server.address()?.port ?? 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: ca.cert });
  const body = (uid: number) =>
    JSON.stringify({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: {
        uid: String(uid),
        kind: { group: GPUBudget.group, version: "v1", kind: "GPUBudget" },
        resource: { group: GPUBudget.group, version: "v1", resource: "gpubudgets" },
        operation: "CREATE",
        userInfo: { username: "bench" },
        object: {
          apiVersion: "capacity.lab.example.com/v1",
          kind: "GPUBudget",
          metadata: { name: `b${uid}` },
          spec: { maxGPUs: uid % 16 },
        },
      },
    });
  const call = (path: string, uid: number) =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path,
          method: "POST",
          agent,
          headers: { "content-type": "application/json" },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve());
        },
      );
      req.on("error", reject);
      req.end(body(uid));
    });
  for (const path of [
    "/validate-capacity-lab-example-com-v1-gpubudget",
    "/mutate-capacity-lab-example-com-v1-gpubudget",
  ]) {
    for (let i = 0; i < 200; i++) await call(path, i); // warm up
    const times: number[] = [];
    for (let i = 0; i < N; i++) {
      const t = performance.now();
      await call(path, i);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${path}: ${N} sequential requests, p50 ${percentile(times, 50).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms`,
    );
  }
  agent.destroy();
  abort.abort();
  await stopped;
  rmSync(dir, { recursive: true, force: true });

  const crdDir = fileURLToPath(new URL("../../runtime/src/fake/testdata", import.meta.url));
  let t = performance.now();
  createFakeClient({ crdDirectoryPaths: [crdDir] });
  const firstMs = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < 100; i++) createFakeClient({ crdDirectoryPaths: [crdDir] });
  const nextMs = (performance.now() - t) / 100;
  const fake = createFakeClient({ crdDirectoryPaths: [crdDir] });
  t = performance.now();
  for (let i = 0; i < N; i++) {
    await fake.create(GPUBudget, {
      apiVersion: "capacity.lab.example.com/v1",
      kind: "GPUBudget",
      metadata: { name: `b${i}`, namespace: "lab" },
      spec: { maxGPUs: 4, minGPUs: 1, team: "team-a" },
    });
  }
  const perCreate = (performance.now() - t) / N;
  console.log(
    `fake client: first client with a CEL CRD ${firstMs.toFixed(0)} ms, later clients ${nextMs.toFixed(1)} ms each, validated create ${(perCreate * 1000).toFixed(0)} µs`,
  );
}

await main();
