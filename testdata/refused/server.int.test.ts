/**
 * kbts and the API server agree on the corpus: for every case that reaches the cluster, the manifest
 * closest to what the input means (server.json: a CRD, a ClusterRole, a webhook configuration) is
 * refused by a real kube-apiserver, or, when the server takes the schema, every object of it
 * (object.json) is refused, and kbts refuses the input before writing anything.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ClusterRole,
  CustomResourceDefinition,
  createClient,
  defineKind,
  ValidatingWebhookConfiguration,
} from "@kbts/runtime";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBases, listRefusedCases, prepare, type RefusedCase, runCase } from "./cases.js";

const work = mkdtempSync(join(tmpdir(), "kbts-refused-server-"));
let env: Environment;
let bases: Record<RefusedCase["base"], string>;
beforeAll(async () => {
  [env, bases] = await Promise.all([startEnvironment(), buildBases(work)]);
});
afterAll(async () => {
  await env?.stop();
  rmSync(work, { recursive: true, force: true });
});

const cases = listRefusedCases().filter((c) => c.server !== undefined);

async function verdict(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => "accept",
    (e: Error) => `refuse: ${e.message}`,
  );
}

type Obj = Record<string, unknown> & { metadata: { name: string }; spec: Record<string, unknown> };

/** The server's verdict on the case's manifest (and on an object of it when the schema is taken). */
async function serverVerdict(c: RefusedCase): Promise<string> {
  const client = createClient(env.kubeConfig);
  const manifest = structuredClone(c.server) as Obj;
  if (manifest.kind === "ClusterRole") return verdict(client.create(ClusterRole, manifest as never));
  if (manifest.kind === "ValidatingWebhookConfiguration") {
    return verdict(client.create(ValidatingWebhookConfiguration, manifest as never));
  }
  // CRDs of the marker cases share a name: each gets its own group, so none meets another's.
  let group = String(manifest.spec.group);
  if (group === "cache.example.com") {
    group = `${c.name}.example.com`;
    manifest.spec.group = group;
    manifest.metadata.name = `${(manifest.spec.names as { plural: string }).plural}.${group}`;
  }
  const crd = await verdict(client.create(CustomResourceDefinition, manifest as never));
  if (crd !== "accept" || !c.object) return crd;
  const names = manifest.spec.names as { kind: string; plural: string };
  const kind = defineKind<Obj>({
    group,
    version: "v1",
    kind: names.kind,
    plural: names.plural,
    namespaced: true,
  });
  const object = { ...structuredClone(c.object), apiVersion: `${group}/v1` } as Obj;
  // The CRD is served a moment after it is created: poll until the answer is about the object.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await verdict(client.create(kind, object as never));
    if (!/not found|could not find the requested resource/i.test(answer) || Date.now() > deadline)
      return answer;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("the corpus: kube-apiserver refuses what kbts refuses", () => {
  it("has the cases that reach the API server", () => {
    expect(cases.length).toBeGreaterThanOrEqual(14);
  });

  it.each(cases.map((c) => [c.name, c] as const))(
    "%s",
    async (name, c) => {
      const fromServer = await serverVerdict(c);
      expect(fromServer.split(":")[0], `${name}: the API server said ${fromServer}`).toBe("refuse");
      const dir = join(work, name);
      prepare(c, bases[c.base], dir);
      const fromKbts = await verdict(runCase(c, dir));
      expect(fromKbts, name).toContain(c.message);
    },
    60_000,
  );
});
