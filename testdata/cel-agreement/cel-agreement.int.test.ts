/**
 * kbts' generate-time CEL check and the real kube-apiserver agree on EVERY CEL rule in testdata:
 * the markers corpus, broken-crds, the golden projects and the refused corpus. Each rule is checked
 * by kbts (celRuleProblems, what `kbts manifests` runs on every x-kubernetes-validations rule) and,
 * alone on its schema node in a CRD with every other rule removed, sent to the API server as a
 * dry-run create. A rule kbts refuses must be refused by the server (naming the rule), and a rule the
 * server refuses must be refused by kbts. kbts' verdict is its CEL check and, for cost, its cost gate
 * (exceedsCelBudget over the same one-rule schema the server gets). One control plane; the CRDs go in
 * parallel batches.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  CustomResourceDefinition,
  createClient,
  type JSONSchemaProps,
  type ValidationRule,
} from "@kbts/runtime";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { celRuleProblems } from "../../src/crd/markers/validation.js";
import type { CustomResourceDefinition as Crd } from "../../src/crd/types.js";
import { generateManifests } from "../../src/manifests/index.js";
import { exceedsCelBudget } from "../../src/schema/cel-cost-gate.js";

const TESTDATA = fileURLToPath(new URL("..", import.meta.url));
const SKIP_DIRS = new Set(["node_modules", "go", "expected", "dist", ".git"]);

/** Cases whose rules never reach a CRD, with the reason. */
const NO_CRD: Record<string, string> = {
  "markers/98-err-marker-arguments":
    "its XValidation marker is malformed (reason=FieldValueWrong), so no rule is made",
};

/** One rule where it stands: the CRD and version it came from and the path of its schema node. */
interface Located {
  source: string;
  crd: Crd;
  version: string;
  /** Property path from the version's schema root ([] for the root), `[]` for items, `{}` for values. */
  path: string[];
  node: JSONSchemaProps;
  rule: ValidationRule;
}

const hasTs = (dir: string): boolean =>
  existsSync(dir) &&
  readdirSync(dir, { withFileTypes: true }).some((e) =>
    e.isDirectory() ? hasTs(join(dir, e.name)) : e.name.endsWith(".ts"),
  );

/** Directories kbts reads as a project (TypeScript under api/ or internal/), not descending into one. */
function projectRoots(dir: string, out: string[] = []): string[] {
  if (hasTs(join(dir, "api")) || hasTs(join(dir, "internal"))) {
    out.push(dir);
    return out;
  }
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory() && !SKIP_DIRS.has(e.name)) projectRoots(join(dir, e.name), out);
  return out;
}

/** Files under dir whose name passes `want`. */
function filesUnder(dir: string, want: (name: string) => boolean, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) filesUnder(p, want, out);
    } else if (want(e.name)) out.push(p);
  }
  return out;
}

function walk(
  schema: JSONSchemaProps,
  path: string[],
  visit: (node: JSONSchemaProps, path: string[]) => void,
): void {
  visit(schema, path);
  for (const [k, v] of Object.entries(schema.properties ?? {})) walk(v, [...path, k], visit);
  if (schema.items && !Array.isArray(schema.items))
    walk(schema.items as JSONSchemaProps, [...path, "[]"], visit);
  if (typeof schema.additionalProperties === "object")
    walk(schema.additionalProperties, [...path, "{}"], visit);
}

function rulesOf(crd: Crd, source: string): Located[] {
  const out: Located[] = [];
  for (const v of crd.spec.versions) {
    const root = v.schema?.openAPIV3Schema;
    if (!root) continue;
    walk(root, [], (node, path) => {
      for (const rule of node["x-kubernetes-validations"] ?? [])
        out.push({ source, crd, version: v.name, path, node, rule });
    });
  }
  return out;
}

/** Every CEL rule of testdata, with where it came from. */
async function collectRules(): Promise<{ rules: Located[]; unread: string[] }> {
  const rules: Located[] = [];
  const unread: string[] = [];
  for (const root of projectRoots(TESTDATA)) {
    const name = relative(TESTDATA, root);
    // The refused corpus' files are laid over a scaffold: their CRDs are in server.json (below).
    if (name.startsWith("refused/")) continue;
    let files: Map<string, string>;
    try {
      // Unchecked: the CRD exactly as the markers say, broken rules included.
      files = (await generateManifests({ root, unchecked: true })).files;
    } catch (err) {
      // Cases that fail for other reasons (error cases) must not hide a rule.
      const withRules = filesUnder(root, (n) => n.endsWith(".ts")).filter((f) =>
        /XValidation|k8s:immutable|OneOf/.test(readFileSync(f, "utf8")),
      );
      if (withRules.length > 0 && !(name in NO_CRD))
        unread.push(`${name}: ${(err as Error).message.split("\n")[0]}`);
      continue;
    }
    for (const [path, text] of files) {
      if (!path.includes("/crd/")) continue;
      for (const doc of parseAllDocuments(text)) rules.push(...rulesOf(doc.toJS() as Crd, `${name}/${path}`));
    }
  }
  for (const file of filesUnder(join(TESTDATA, "refused"), (n) => n === "server.json")) {
    const obj = JSON.parse(readFileSync(file, "utf8")) as Crd;
    if (obj.kind === "CustomResourceDefinition") rules.push(...rulesOf(obj, relative(TESTDATA, file)));
  }
  return { rules, unread };
}

/** The CRD the server gets for one rule: its version only, every other rule removed. */
function crdFor(r: Located): Crd {
  const crd = structuredClone(r.crd);
  const version = crd.spec.versions.find((v) => v.name === r.version);
  if (!version?.schema?.openAPIV3Schema) throw new Error(`${r.source}: no version ${r.version}`);
  version.served = true;
  version.storage = true;
  crd.spec.versions = [version];
  delete (crd.spec as { conversion?: unknown }).conversion;
  crd.metadata = { name: crd.metadata.name };
  const root = version.schema.openAPIV3Schema;
  walk(root, [], (node) => {
    delete node["x-kubernetes-validations"];
  });
  let node: JSONSchemaProps = root;
  for (const step of r.path) {
    const next: JSONSchemaProps | undefined =
      step === "[]"
        ? (node.items as JSONSchemaProps)
        : step === "{}"
          ? (node.additionalProperties as JSONSchemaProps)
          : node.properties?.[step];
    if (!next) throw new Error(`${r.source}: no schema at ${r.path.join(".")}`);
    node = next;
  }
  node["x-kubernetes-validations"] = [r.rule];
  return crd;
}

let env: Environment;
beforeAll(async () => {
  env = await startEnvironment();
});
afterAll(async () => {
  await env?.stop();
});

describe("the CEL check agrees with kube-apiserver on every rule in testdata", () => {
  it("accepts what the server accepts and refuses what it refuses", { timeout: 300_000 }, async () => {
    const { rules, unread } = await collectRules();
    expect(unread, "cases whose rules could not be read").toEqual([]);
    expect(rules.length).toBeGreaterThanOrEqual(40);

    const client = createClient(env.kubeConfig);
    const verdicts: { kbts: string | undefined; server: string | undefined }[] = [];
    const queue = rules.map((_, i) => i);
    const worker = async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const r = rules[i] as Located;
        const problems = celRuleProblems(r.rule, {
          schema: r.node,
          owner: [r.crd.spec.names.kind, ...r.path].join("."),
          isRoot: r.path.length === 0,
        });
        const crd = crdFor(r);
        const schema = crd.spec.versions[0]?.schema.openAPIV3Schema;
        const cost = schema && exceedsCelBudget(schema) ? "over the API server's CEL cost budget" : undefined;
        const server = await client.create(CustomResourceDefinition, crd, { dryRun: true }).then(
          () => undefined,
          (e: Error) => e.message,
        );
        verdicts[i] = { kbts: problems[0]?.message ?? cost, server };
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));

    const disagreements: string[] = [];
    let refused = 0;
    rules.forEach((r, i) => {
      const { kbts, server } = verdicts[i] as { kbts?: string; server?: string };
      const where = `${r.source} ${r.version} ${r.path.join(".") || "(root)"}: ${JSON.stringify(r.rule.rule)}`;
      if (server !== undefined && !server.includes("x-kubernetes-validations"))
        disagreements.push(`${where}: the server refuses the CRD for another reason: ${server}`);
      else if (kbts !== undefined && server === undefined)
        disagreements.push(`${where}: kbts refuses a rule the server accepts: ${kbts}`);
      else if (kbts === undefined && server !== undefined)
        disagreements.push(`${where}: kbts accepts a rule the server refuses: ${server}`);
      if (server !== undefined) refused++;
    });
    console.log(`${rules.length} CEL rules in testdata; the server refuses ${refused}, kbts agrees on each`);
    expect(disagreements, disagreements.join("\n")).toEqual([]);
    // Both ways are exercised: testdata holds rules the server refuses, and many it accepts.
    expect(refused).toBeGreaterThanOrEqual(3);
    expect(rules.length - refused).toBeGreaterThanOrEqual(30);
  });
});
