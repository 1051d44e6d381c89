/**
 * kbts and the API server agree on every case of testdata/broken-crds: `kbts manifests` refuses
 * exactly the CRDs kube-apiserver refuses (naming the marker and the fix), and accepts the tricky
 * valid ones. The CRD sent to the server is what the markers say, built without kbts' checks. The
 * fake client, loading the same CRD, agrees too (it refuses rules that do not compile).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CustomResourceDefinition, createClient } from "@kbts/runtime";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { createFakeClient } from "@kbts/runtime/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { generateManifests } from "../../src/manifests/index.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const cases = readdirSync(here).filter((d) => statSync(join(here, d)).isDirectory());

let env: Environment;
beforeAll(async () => {
  env = await startEnvironment();
});
afterAll(async () => {
  await env?.stop();
});

async function verdict<T>(p: Promise<T>): Promise<string> {
  return p.then(
    () => "accept",
    (e: Error & { format?: () => string }) => `refuse: ${e.format?.() ?? e.message}`,
  );
}

describe("broken CRDs: kbts manifests and kube-apiserver agree", () => {
  it.each(cases)("%s", async (name) => {
    const root = join(here, name);
    const [expect1, words = ""] = readFileSync(join(root, "expected.txt"), "utf8").split("\n");
    const fromKbts = await verdict(generateManifests({ root }));
    const { files } = await generateManifests({ root, unchecked: true });
    const crd = parse([...files.entries()].find(([f]) => f.startsWith("config/crd/"))?.[1] ?? "");
    const client = createClient(env.kubeConfig);
    const fromServer = await verdict(client.create(CustomResourceDefinition, crd));
    const fromFake = await verdict(Promise.resolve().then(() => createFakeClient({ crds: [crd] })));

    expect(fromServer.split(":")[0], fromServer).toBe(expect1);
    expect(fromKbts.split(":")[0], fromKbts).toBe(fromServer.split(":")[0]);
    for (const word of words.split(" ").filter((w) => w !== "")) expect(fromKbts).toContain(word);
    if (expect1 === "refuse") expect(fromKbts).toMatch(/crontab_types\.ts:\d+:\d+/);
    // The fake client refuses rules that do not compile; printer columns do not concern it.
    if (!name.startsWith("printcolumn")) expect(fromFake.split(":")[0], fromFake).toBe(expect1);
  });
});
