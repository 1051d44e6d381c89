import * as crypto from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { CustomResourceDefinition } from "../crd/types.js";
import { writeFileWhole } from "../files/write-whole.js";
import type { MarkerWarning } from "../markers/parse.js";
import { KBTS_ROOT, kbtsVersion } from "../version.js";
import type { JsonValue } from "../yaml/emit.js";
import type { ManifestResult } from "./generate.js";

/**
 * The input-hash cache of `kbts manifests`: the last full run's output, served again when nothing it
 * read has changed, without loading the compiler (issue 14: a second run on unchanged inputs costs a
 * fraction of controller-gen's). It lives under the project, in node_modules/.cache/kbts.
 *
 * What a run reads is known only after it ran (the files matched by --paths and every file they import,
 * transitively), so an entry records each of those files with a hash of the text the generator parsed,
 * the import candidates it looked for and did not find, and the tsconfig.json chain. An entry is served
 * only when the same files match --paths, every recorded file hashes the same, no looked-for file
 * appeared, and kbts (version and build), Node and the flags are the same. Anything unreadable or
 * malformed is a miss: the cache can cost a full run, never a stale or failed one.
 */

// 2: entries carry the generated objects (crds, roles, webhooks) beside the files.
const FORMAT = 2;

/** The flags that change what a run generates. */
export interface CacheFlags {
  paths?: string[];
  crdOutput?: string;
  roleName?: string;
  allowDangerousTypes?: boolean;
  strict?: boolean;
}

interface Entry {
  format: number;
  stamp: string;
  /** Files matched by --paths, relative to the project. */
  scanned: string[];
  /** Every file the run read (and the tsconfig chain), relative → sha256 of its text. */
  inputs: Record<string, string>;
  /** Import candidates that did not exist, relative: one appearing changes the program. */
  probed: string[];
  files: Array<[string, string]>;
  crds: Array<[string, CustomResourceDefinition]>;
  roles: JsonValue[];
  webhooks: JsonValue[];
  warnings: MarkerWarning[];
}

// crypto.hash (Node >= 20.12) hashes in one call without building a Hash stream, whose stream
// machinery was a tenth of a cached run's JavaScript; the digest is the same.
const hash = (text: string): string =>
  crypto.hash?.("sha256", text, "hex") ?? crypto.createHash("sha256").update(text).digest("hex");

/** kbts' version, and its build when run from a checkout (dist/.tsbuildinfo changes with every build). */
function kbtsStamp(): string {
  // From the package folder, not this module: the fast path runs this code bundled at dist/'s top.
  const buildInfo = join(KBTS_ROOT, "dist", ".tsbuildinfo");
  let build = "-";
  try {
    const st = statSync(buildInfo);
    build = `${st.size}:${st.mtimeMs}`;
  } catch {
    // An installed package: its version says it all.
  }
  return `kbts ${kbtsVersion()} build ${build} node ${process.version}`;
}

/** tsconfig.json and the files it extends (relative or package paths), as path → text. */
function tsconfigChain(root: string): Map<string, string> {
  const chain = new Map<string, string>();
  const visit = (file: string): void => {
    if (chain.has(file) || chain.size > 16) return;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return;
    }
    chain.set(file, text);
    const extendsValue = /"extends"\s*:\s*("(?:[^"\\]|\\.)*"|\[[^\]]*\])/.exec(text)?.[1];
    if (!extendsValue) return;
    for (const spec of extendsValue.match(/"(?:[^"\\]|\\.)*"/g) ?? []) {
      const name = JSON.parse(spec) as string;
      const base =
        name.startsWith(".") || isAbsolute(name)
          ? resolve(dirname(file), name)
          : join(root, "node_modules", name);
      visit(existsSync(base) || base.endsWith(".json") ? base : `${base}.json`);
    }
  };
  visit(join(root, "tsconfig.json"));
  return chain;
}

function isEntry(v: unknown): v is Entry {
  const e = v as Partial<Entry> | null;
  const pairs = (a: unknown) =>
    Array.isArray(a) &&
    a.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === "string"));
  return (
    typeof e === "object" &&
    e !== null &&
    e.format === FORMAT &&
    typeof e.stamp === "string" &&
    Array.isArray(e.scanned) &&
    typeof e.inputs === "object" &&
    e.inputs !== null &&
    Array.isArray(e.probed) &&
    pairs(e.files) &&
    Array.isArray(e.crds) &&
    e.crds.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === "string") &&
    Array.isArray(e.roles) &&
    Array.isArray(e.webhooks) &&
    Array.isArray(e.warnings)
  );
}

export class ManifestCache {
  private readonly stamp: string;
  private readonly file: string;
  private readonly tsconfig: Map<string, string>;

  constructor(
    private readonly root: string,
    flags: CacheFlags,
  ) {
    const wanted = {
      paths: flags.paths ?? null,
      crdOutput: flags.crdOutput ?? null,
      roleName: flags.roleName ?? null,
      allowDangerousTypes: flags.allowDangerousTypes ?? false,
      strict: flags.strict ?? false,
    };
    // The project's path too: projects sharing one node_modules (a symlink) keep apart entries.
    this.stamp = `${kbtsStamp()} root ${root} flags ${JSON.stringify(wanted)}`;
    this.file = join(
      root,
      "node_modules",
      ".cache",
      "kbts",
      `manifests-${hash(this.stamp).slice(0, 16)}.json`,
    );
    // Read before the run, so the entry records what the run saw.
    this.tsconfig = tsconfigChain(root);
  }

  private rel(file: string): string {
    return relative(this.root, file);
  }

  /** The last run's result if nothing it read has changed; undefined otherwise. */
  lookup(scanned: string[]): ManifestResult | undefined {
    let entry: unknown;
    try {
      entry = JSON.parse(readFileSync(this.file, "utf8"));
    } catch {
      return undefined;
    }
    if (!isEntry(entry) || entry.stamp !== this.stamp) return undefined;
    const now = scanned.map((f) => this.rel(f));
    if (now.length !== entry.scanned.length || now.some((f, i) => f !== entry.scanned[i])) return undefined;
    const tsconfigNow = new Map([...this.tsconfig].map(([f, t]) => [this.rel(f), t]));
    for (const [rel, sum] of Object.entries(entry.inputs)) {
      let text = tsconfigNow.get(rel);
      if (text === undefined) {
        try {
          text = readFileSync(join(this.root, rel), "utf8");
        } catch {
          return undefined;
        }
      }
      if (hash(text) !== sum) return undefined;
    }
    // A tsconfig that appeared (or a new file in its chain) is a change too.
    if ([...tsconfigNow.keys()].some((rel) => !(rel in entry.inputs))) return undefined;
    if (entry.probed.some((rel) => existsSync(join(this.root, rel)))) return undefined;
    return {
      files: new Map(entry.files),
      crds: new Map(entry.crds),
      roles: entry.roles,
      webhooks: entry.webhooks,
      inputs: { scanned, read: new Map(), probed: [] },
      warnings: entry.warnings,
    };
  }

  /** Records a full run's result (best effort: a cache that cannot be written is only slower). */
  store(result: ManifestResult): void {
    const inputs: Record<string, string> = {};
    for (const [file, text] of [...result.inputs.read, ...this.tsconfig]) inputs[this.rel(file)] = hash(text);
    const entry: Entry = {
      format: FORMAT,
      stamp: this.stamp,
      scanned: result.inputs.scanned.map((f) => this.rel(f)),
      inputs,
      probed: result.inputs.probed.map((f) => this.rel(f)),
      files: [...result.files],
      crds: [...result.crds],
      roles: result.roles,
      webhooks: result.webhooks,
      warnings: result.warnings,
    };
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileWhole(this.file, JSON.stringify(entry));
    } catch {
      // A read-only or full disk only means the next run generates again.
    }
  }
}
