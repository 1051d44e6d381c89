/**
 * The scaffold's `make install` and `make deploy` apply with the flags read from the Makefile template,
 * checked with the real kubectl against a real kube-apiserver: a CRD over the 262,144-byte annotation
 * limit (which client-side apply cannot install, so `kbts manifests` warns) installs, and a re-install
 * takes back the fields another manager changed while keeping the fields only others set.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_SIDE_APPLY_LIMIT } from "./crd-size.js";
import { generateManifests } from "./generate.js";

const run = promisify(execFile);
const makefile = readFileSync(
  new URL("../../templates/typescript/init/Makefile.hbs", import.meta.url).pathname,
  "utf8",
);
const corpus = (name: string) => new URL(`../../testdata/markers/${name}`, import.meta.url).pathname;

/** The flags a Makefile target's recipe passes to `$(KUBECTL) apply`. */
function applyFlags(target: string): string[] {
  const recipe = new RegExp(`^${target}:[^\\n]*\\n((?:\\t[^\\n]*\\n)+)`, "m").exec(makefile)?.[1] ?? "";
  const flags = /\$\(KUBECTL\) apply (.*?) -f -/.exec(recipe)?.[1];
  if (flags === undefined) throw new Error(`no kubectl apply in the ${target} target`);
  return flags.split(/\s+/);
}

let env: Environment;
let dir: string;
const kubectl = (...args: string[]) =>
  run(join(process.env.KUBEBUILDER_ASSETS ?? "", "kubectl"), ["--kubeconfig", env.kubeconfigPath, ...args]);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => "succeeded",
    (e: { stderr?: string }) => e.stderr ?? String(e),
  );

/** Polls until the API server reports the CRD Established (kubectl wait fails while it has no conditions). */
async function established(crd: string): Promise<void> {
  type Status = { status?: { conditions?: { type: string; status: string }[] } };
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const { stdout } = await kubectl("get", "crd", crd, "-o", "json");
    const { status } = JSON.parse(stdout) as Status;
    if (status?.conditions?.some((c) => c.type === "Established" && c.status === "True")) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${crd} was not Established within 60 s`);
}

/** The generated CRD of a testdata/markers case, written to a file; returns its path and text. */
async function crdFile(name: string): Promise<{ path: string; text: string; crd: string }> {
  const { files } = await generateManifests({ root: corpus(name) });
  const [file, text] = [...files].find(([f]) => f.startsWith("config/crd/bases/")) ?? ["", ""];
  const path = join(dir, file.replaceAll("/", "_"));
  writeFileSync(path, text);
  return { path, text, crd: /^ {2}name: (\S+)$/m.exec(text)?.[1] ?? "" };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbts-ssa-"));
  env = await startEnvironment();
});
afterAll(async () => {
  await env?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("make install / make deploy: server-side apply", () => {
  const flags = applyFlags("install");

  it("install and deploy apply server-side and take back conflicting fields", () => {
    expect(flags).toEqual(["--server-side", "--force-conflicts"]);
    expect(applyFlags("deploy")).toEqual(flags);
  });

  it("installs a CRD too large for client-side apply, which refuses it", async () => {
    const big = await crdFile("51-known-podtemplatespec");
    expect(Buffer.byteLength(big.text)).toBeGreaterThan(CLIENT_SIDE_APPLY_LIMIT);
    expect(await failure(kubectl("apply", "-f", big.path))).toMatch(
      /metadata\.annotations: Too long: may not be more than 262144 bytes/,
    );
    await kubectl("apply", ...flags, "-f", big.path);
    await established(big.crd);
    // A second install of the same files changes nothing and succeeds.
    expect((await kubectl("apply", ...flags, "-f", big.path)).stdout).toContain("serverside-applied");
  });

  it("re-installs over another manager's changes, and keeps what only others set", async () => {
    const small = await crdFile("01-basic");
    await kubectl("create", "-f", small.path);
    await kubectl("label", "crd", small.crd, "team=widgets");
    const changed = small.text.replace("spec defines the desired state of Widget", "the desired state");
    expect(changed).not.toBe(small.text);
    writeFileSync(small.path, changed);
    // Without --force-conflicts the re-install stops on kubectl create's ownership of .spec.versions.
    expect(await failure(kubectl("apply", "--server-side", "-f", small.path))).toContain(
      'conflict with "kubectl-create"',
    );
    await kubectl("apply", ...flags, "-f", small.path);
    const { stdout } = await kubectl("get", "crd", small.crd, "-o", "json");
    const crd = JSON.parse(stdout) as {
      metadata: { labels?: Record<string, string> };
      spec: {
        versions: { schema: { openAPIV3Schema: { properties: { spec: { description: string } } } } }[];
      };
    };
    expect(crd.spec.versions[0]?.schema.openAPIV3Schema.properties.spec.description).toBe(
      "the desired state",
    );
    expect(crd.metadata.labels?.team).toBe("widgets");
  });
});
