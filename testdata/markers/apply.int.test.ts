/**
 * Every CRD in the corpus, applied to a real kube-apiserver: it must be accepted and become
 * Established, and the validation it carries must really bite (CEL, enum, minimum, pattern), printer
 * columns must come back in the server's Table output, and the scale subresource must work with
 * `kubectl scale`.
 */
import { execFile } from "node:child_process";
import { request as httpsRequest } from "node:https";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { expectedFiles, listCases } from "./cases.js";

const run = promisify(execFile);

interface Response {
  status: number;
  body: string;
  /** The Retry-After header, seconds. */
  retryAfter?: string;
}

let env: Environment;

/**
 * One request, retried like every Kubernetes client on 429 with Retry-After (a just-created CRD's storage
 * answers "storage is (re)initializing" for a moment), at most 10 times.
 */
async function call(
  method: string,
  path: string,
  body?: unknown,
  accept = "application/json",
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await callOnce(method, path, body, accept);
    if (res.status !== 429 || attempt >= 10) return res;
    await new Promise((r) => setTimeout(r, 1000 * Math.max(1, Number(res.retryAfter ?? 1))));
  }
}

function callOnce(method: string, path: string, body: unknown, accept: string): Promise<Response> {
  const cfg = env.config;
  if (!cfg) throw new Error("envtest did not start a control plane");
  const url = new URL(path, cfg.host);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method,
        ca: cfg.caData,
        cert: cfg.certData,
        key: cfg.keyData,
        headers: { Accept: accept, ...(payload ? { "Content-Type": "application/json" } : {}) },
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          data += c;
        });
        res.on("end", () => {
          const retryAfter = res.headers["retry-after"];
          resolve({ status: res.statusCode ?? 0, body: data, ...(retryAfter ? { retryAfter } : {}) });
        });
      },
    );
    req.on("error", reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** Polls fn until it returns a value, or fails with the last reason at the deadline. */
async function eventually<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface CRD {
  metadata: { name: string };
  spec: {
    group: string;
    names: { plural: string; kind: string };
    versions: { name: string; served: boolean }[];
  };
}

interface Doc {
  kind: string;
  metadata: { name: string; namespace?: string };
}

const crds: { caseName: string; file: string; crd: CRD }[] = [];
/** RBAC roles and webhook configurations, checked by the API server too. */
const others: { caseName: string; doc: Doc }[] = [];
for (const c of listCases()) {
  if (c.kind !== "output") continue;
  for (const [path, text] of expectedFiles(c)) {
    if (path.startsWith("config/rbac/") || path.startsWith("config/webhook/")) {
      for (const doc of parseAllDocuments(text)) others.push({ caseName: c.name, doc: doc.toJS() as Doc });
    }
  }
}

const COLLECTIONS: Record<string, string> = {
  ClusterRole: "/apis/rbac.authorization.k8s.io/v1/clusterroles",
  Role: "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles",
  MutatingWebhookConfiguration: "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
  ValidatingWebhookConfiguration: "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
};
for (const c of listCases()) {
  if (c.kind !== "output") continue;
  for (const [path, text] of expectedFiles(c)) {
    if (!path.startsWith("config/crd/")) continue;
    for (const doc of parseAllDocuments(text))
      crds.push({ caseName: c.name, file: path, crd: doc.toJS() as CRD });
  }
}

const applied = new Set<string>();

async function applyCRD(crd: CRD): Promise<void> {
  if (applied.has(crd.metadata.name)) return;
  const res = await call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
  if (res.status !== 201) throw new Error(`CRD ${crd.metadata.name} rejected (${res.status}): ${res.body}`);
  await eventually(`${crd.metadata.name} to be Established`, async () => {
    const got = await call(
      "GET",
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
    );
    const conds = (JSON.parse(got.body) as { status?: { conditions?: { type: string; status: string }[] } })
      .status?.conditions;
    return conds?.some((x) => x.type === "Established" && x.status === "True") ? true : undefined;
  });
  applied.add(crd.metadata.name);
}

function crdFor(caseName: string): CRD {
  const found = crds.find((x) => x.caseName === caseName);
  if (!found) throw new Error(`no CRD in case ${caseName}`);
  return found.crd;
}

/** Creates an object of the case's kind; waits out the short gap before a new CRD's endpoint serves. */
async function create(caseName: string, name: string, spec: unknown, namespaced = true): Promise<Response> {
  const crd = crdFor(caseName);
  await applyCRD(crd); // also when this test runs alone (vitest -t)
  const version = crd.spec.versions.find((v) => v.served)?.name ?? "v1";
  const base = `/apis/${crd.spec.group}/${version}${namespaced ? "/namespaces/default" : ""}/${crd.spec.names.plural}`;
  const body = {
    apiVersion: `${crd.spec.group}/${version}`,
    kind: crd.spec.names.kind,
    metadata: { name },
    spec,
  };
  return eventually(`${base} to be served`, async () => {
    const res = await call("POST", base, body);
    return res.status === 404 ? undefined : res;
  });
}

/**
 * Cases whose controller-gen output no API server accepts; they exist to prove kbts writes the same
 * YAML for the marker anyway, and the server's reason is pinned here.
 */
const REFUSED_BY_SERVER: Record<string, string> = {
  "69-unique-items": "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
  // controller-gen turns groups= (empty) into a rule without apiGroups, which RBAC refuses.
  "102-rbac-edge ClusterRole manager-role": "resource rules must supply at least one api group",
};

/** The Status message of an error response. */
function message(res: Response): string {
  return (JSON.parse(res.body) as { message?: string }).message ?? res.body;
}

describe("expected CRDs on a real API server", () => {
  beforeAll(async () => {
    env = await startEnvironment({});
  }, 120_000);
  afterAll(async () => {
    await env?.stop();
  });

  it("finds the corpus CRDs", () => {
    expect(crds.length).toBeGreaterThanOrEqual(50);
  });

  for (const { caseName, file, crd } of crds) {
    const refusal = REFUSED_BY_SERVER[caseName];
    if (refusal) {
      it(`refuses ${caseName}/${file.split("/").pop()}, as it refuses controller-gen's`, async () => {
        const res = await call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
        expect(res.status).toBe(422);
        expect(message(res)).toContain(refusal);
      });
      continue;
    }
    it(`accepts ${caseName}/${file.split("/").pop()}`, async () => {
      await applyCRD(crd);
    });
  }

  for (const { caseName, doc } of others) {
    const label = `${caseName} ${doc.kind} ${doc.metadata.namespace ? `${doc.metadata.namespace}/` : ""}${doc.metadata.name}`;
    const refusal = REFUSED_BY_SERVER[`${caseName} ${doc.kind} ${doc.metadata.name}`];
    it(`${refusal ? "refuses" : "accepts"} ${label}`, async () => {
      const ns = doc.metadata.namespace;
      if (ns)
        await call("POST", "/api/v1/namespaces", {
          apiVersion: "v1",
          kind: "Namespace",
          metadata: { name: ns },
        });
      const collection = (COLLECTIONS[doc.kind] ?? "").replace("{ns}", ns ?? "");
      // Every case names its role manager-role: prefix the case so they do not collide.
      const name = `${caseName}-${doc.metadata.name}`;
      const res = await call("POST", collection, { ...doc, metadata: { ...doc.metadata, name } });
      if (refusal) {
        expect(res.status).toBe(422);
        expect(message(res)).toContain(refusal);
        return;
      }
      expect(res.status, res.body).toBe(201);
      // Webhooks point at services that do not run here: remove them before they intercept anything.
      if (doc.kind.endsWith("WebhookConfiguration")) await call("DELETE", `${collection}/${name}`);
    });
  }

  it("rejects an object breaking a CEL rule, with the rule's message", async () => {
    const ok = await create("13-xvalidation-field", "good", { low: 1, high: 2, name: "n" });
    expect(ok.status, ok.body).toBe(201);
    const bad = await create("13-xvalidation-field", "bad", { low: -1, high: 2, name: "n" });
    expect(bad.status).toBe(422);
    expect(message(bad)).toContain("spec.low: Invalid value");
    expect(message(bad)).toContain("low must not be negative");
  });

  it("rejects a value outside an enum", async () => {
    const ok = await create("04-enum-marker", "good", { color: "Amber" });
    expect(ok.status, ok.body).toBe(201);
    const bad = await create("04-enum-marker", "bad", { color: "Blue" });
    expect(bad.status).toBe(422);
    expect(message(bad)).toContain('spec.color: Unsupported value: "Blue"');
  });

  it("rejects a value below a minimum", async () => {
    const ok = await create("02-validation-numeric", "good", { replicas: 1 });
    expect(ok.status, ok.body).toBe(201);
    const bad = await create("02-validation-numeric", "bad", { replicas: 0 });
    expect(bad.status).toBe(422);
    expect(message(bad)).toContain(
      "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
    );
  });

  it("rejects a value not matching a pattern", async () => {
    const ok = await create("03-validation-string", "good", { name: "good-name" });
    expect(ok.status, ok.body).toBe(201);
    const bad = await create("03-validation-string", "bad", { name: "Bad_Name" });
    expect(bad.status).toBe(422);
    expect(message(bad)).toContain("spec.name in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'");
  });

  it("returns the printer columns in the server's Table output", async () => {
    const made = await create("29-printcolumns-all", "red-brick", { size: 3, color: "red" });
    expect(made.status, made.body).toBe(201);
    const res = await call(
      "GET",
      "/apis/columns.kbts.test/v1/namespaces/default/bricks",
      undefined,
      "application/json;as=Table;g=meta.k8s.io;v=v1",
    );
    expect(res.status, res.body).toBe(200);
    const table = JSON.parse(res.body) as {
      kind: string;
      columnDefinitions: { name: string; type: string; priority?: number; description: string }[];
      rows: { cells: unknown[] }[];
    };
    expect(table.kind).toBe("Table");
    const cols = table.columnDefinitions.map((c) => `${c.name}:${c.type}:${c.priority ?? 0}`);
    expect(cols).toEqual([
      "Name:string:0",
      "Size:integer:0",
      "Color:string:1",
      "Ready:string:10",
      "Age:date:0",
    ]);
    expect(table.columnDefinitions[1]?.description).toBe("how big the brick is");
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0]?.cells.slice(0, 3)).toEqual(["red-brick", 3, "red"]);
  });

  it("scales through the scale subresource with kubectl scale", async () => {
    const made = await create("30-subresource-scale", "armada", { replicas: 1 });
    expect(made.status, made.body).toBe(201);
    const kubectl = join(process.env.KUBEBUILDER_ASSETS ?? "/tmp/envtest-bin", "kubectl");
    const args = ["--kubeconfig", env.kubeconfigPath, "-n", "default"];
    const { stdout } = await run(kubectl, [
      ...args,
      "scale",
      "fleets.scale.kbts.test/armada",
      "--replicas=4",
    ]);
    expect(stdout).toContain("scaled");
    const fleet = await call("GET", "/apis/scale.kbts.test/v1/namespaces/default/fleets/armada");
    expect((JSON.parse(fleet.body) as { spec: { replicas: number } }).spec.replicas).toBe(4);
    const scale = await call("GET", "/apis/scale.kbts.test/v1/namespaces/default/fleets/armada/scale");
    expect(scale.status, scale.body).toBe(200);
    expect((JSON.parse(scale.body) as { kind: string; spec: { replicas: number } }).spec.replicas).toBe(4);
  });
});
