import { readFile } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { compareStrings } from "../compare.js";
import { resource } from "../crd/markers/crd.js";
import { pluralize } from "../crd/plural.js";
import { commitFiles, removeStaleTemps } from "../files/staged.js";
import { findApiPackages } from "../loading/packages.js";
import { findSourceFiles, loadProject } from "../loading/program.js";
import { registry } from "../manifests/generators.js";
import { MarkerCollector } from "../markers/collect.js";
import { type KindDescriptor, renderKindsFile } from "./render.js";

export const KINDS_FILE = "zz_generated.kinds.ts";

export interface KindsOptions {
  root: string;
  paths?: string[];
}

/**
 * `kbts generate`: for every API package, `zz_generated.kinds.ts` with a typed descriptor per root
 * kind (`export const GPUBudgetKind = defineKind<GPUBudget>({...})`), as controller-gen object
 * generates DeepCopy next to Go types. Deterministic: same input, same bytes.
 */
export async function generateKinds(opts: KindsOptions): Promise<Map<string, string>> {
  const files = (await findSourceFiles(opts.root, opts.paths)).filter((f) => basename(f) !== KINDS_FILE);
  const loaded = loadProject(files, opts.root);
  const collector = new MarkerCollector(registry, opts.root);
  const out = new Map<string, string>();
  for (const pkg of findApiPackages(opts.root, loaded.files, collector, loaded.checker)) {
    if (pkg.kinds.length === 0) continue;
    const kinds = [...pkg.kinds].sort((a, b) => compareStrings(a.name, b.name));
    const imports = new Map<string, string[]>();
    const descriptors: KindDescriptor[] = [];
    for (const k of kinds) {
      const file = k.decl.getSourceFile().fileName;
      const spec = `./${basename(file).replace(/\.ts$/, ".js")}`;
      imports.set(spec, [...(imports.get(spec) ?? []), k.name]);
      const res = collector.forNode(k.decl).markers.get(resource)?.value ?? {};
      const plural = typeof res.path === "string" && res.path ? res.path : pluralize(k.name);
      descriptors.push({ name: k.name, plural, namespaced: res.scope !== "Cluster" });
    }
    const importList = [...imports]
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([spec, names]) => ({ spec, names }));
    const content = renderKindsFile(pkg.group, pkg.version, importList, descriptors);
    out.set(relative(opts.root, join(pkg.dir, KINDS_FILE)), content);
  }
  return out;
}

/** Writes the descriptors; returns the files that changed. */
export async function writeKinds(opts: KindsOptions): Promise<string[]> {
  removeStaleTemps(opts.root);
  const files = await generateKinds(opts);
  const changed: Array<{ path: string; content: string }> = [];
  for (const [rel, content] of files) {
    const current = await readFile(join(opts.root, rel), "utf8").catch(() => undefined);
    if (current !== content) changed.push({ path: rel, content });
  }
  commitFiles(opts.root, changed);
  return changed.map((c) => c.path);
}
