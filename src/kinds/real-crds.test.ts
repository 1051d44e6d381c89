import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { JSONSchemaProps } from "@kbts/runtime";
import { CORE_SCHEMA, load } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedDir } from "../../testdata/shared.js";
import { generateManifests } from "../manifests/generate.js";
import { cleanDescription } from "../markers/doc.js";
import { appliesTo, type CrdSource, generateFromCrds, KEYWORD_TYPES, readCrdFile } from "./from-crd.js";

/**
 * The round trip on 41 real CRDs from 25 projects (../shared/oracles/real-crds, read in place, never
 * copied into the repo): `generate --from-crd` writes TypeScript with markers, `kbts manifests` makes
 * a CRD from it, and every served version's structural schema and the CRD-level fields are those of
 * the original, up to the normalisations below (each is semantically identical, or a construct no
 * marker expresses, which the generated file names in a note).
 */

const repoRoot = resolve(new URL("../..", import.meta.url).pathname);

const dir = resolve(sharedDir(repoRoot) ?? resolve(repoRoot, "../shared"), "oracles/real-crds");
const files = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith(".yaml"))
      .sort()
  : [];

/** Keywords no kbts marker expresses: dropped from the original, and each named by a note in the TS. */
const NO_MARKER = ["oneOf", "allOf", "not"] as const;

interface Normalised {
  schema: JSONSchemaProps;
  /** How many keywords were dropped because no marker expresses them. */
  lost: number;
}

/**
 * The schema as compared. Normalisations, and why each is harmless:
 * - key order of every object: JSON objects are unordered (toEqual ignores it);
 * - `required` sorted: it is a set (kbts sorts it, as controller-gen);
 * - `anyOf: [{type: integer}, {type: string}]` beside `x-kubernetes-int-or-string: true` dropped:
 *   int-or-string already says exactly that (controller-gen writes both, other generators one);
 * - descriptions with the whitespace a comment cannot carry removed (trailing spaces on a line, runs
 *   of blank lines, blank lines at either end), as controller-gen reads comments (markers/doc.ts);
 * - `properties: {}` is no properties: both declare no field;
 * - at the root, apiVersion, kind and metadata are the API server's own: it validates them itself and
 *   kbts writes controller-gen's standard schema for them (compared separately below);
 * - a validation keyword on a value of a type it does not constrain (karpenter's maxLength and
 *   pattern on a list): JSON Schema applies it to no value there; kbts' markers refuse it, so the
 *   generated file notes it instead;
 * - oneOf, allOf and not: no marker expresses them; counted as lost, and the generated file says so.
 * Every dropped keyword (these two kinds) is named by a note in the generated file: the counts match.
 * Not compared: unserved versions (never generated) and spec.conversion (kbts writes it from
 * `create webhook --conversion`, not from markers).
 */
function normalise(s: JSONSchemaProps, root = false): Normalised {
  let lost = 0;
  const walk = (n: JSONSchemaProps): JSONSchemaProps => {
    const out: JSONSchemaProps = { ...n };
    for (const k of NO_MARKER) {
      if (out[k] !== undefined) {
        lost++;
        delete out[k];
      }
    }
    for (const k of Object.keys(KEYWORD_TYPES)) {
      const v = out[k as keyof JSONSchemaProps];
      if (v !== undefined && !appliesTo(out, k)) {
        if (v !== false) lost++;
        delete out[k as keyof JSONSchemaProps];
      }
    }
    if (
      out["x-kubernetes-int-or-string"] &&
      JSON.stringify(out.anyOf) === JSON.stringify([{ type: "integer" }, { type: "string" }])
    )
      delete out.anyOf;
    if (out.required) out.required = [...out.required].sort();
    if (out.description !== undefined) out.description = cleanDescription(out.description.split("\n"));
    if (out.description === "") delete out.description;
    if (out.properties) {
      const props: Record<string, JSONSchemaProps> = {};
      for (const [k, v] of Object.entries(out.properties)) props[k] = walk(v);
      out.properties = props;
      if (Object.keys(props).length === 0) delete out.properties;
    }
    if (out.items) out.items = walk(out.items);
    if (out.additionalProperties && typeof out.additionalProperties === "object")
      out.additionalProperties = walk(out.additionalProperties);
    return out;
  };
  const schema = walk(s);
  if (root && schema.properties) {
    for (const k of ["apiVersion", "kind", "metadata"]) delete schema.properties[k];
    if (schema.required)
      schema.required = schema.required.filter((r) => !["apiVersion", "kind", "metadata"].includes(r));
    if (schema.required?.length === 0) delete schema.required;
  }
  return { schema, lost };
}

interface Case {
  file: string;
  source: CrdSource;
  ts: Map<string, string>;
}

let root: string;
const cases: Case[] = [];
let crds: Map<string, Record<string, unknown>>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "kbts-real-crds-"));
  for (const file of files) {
    const [source] = await readCrdFile(join(dir, file));
    if (!source) throw new Error(`${file} holds no CRD`);
    const generated = generateFromCrds([source], { source: file });
    const ts = new Map<string, string>();
    for (const f of generated) {
      // The user who adopts the kind deletes +kubebuilder:skip: kbts manifests then makes its CRD.
      const adopted = f.content.replace("\n// +kubebuilder:skip\n", "\n");
      mkdirSync(dirname(join(root, f.path)), { recursive: true });
      writeFileSync(join(root, f.path), adopted);
      ts.set(f.path, f.content);
    }
    cases.push({ file, source, ts });
  }
  const started = performance.now();
  const result = await generateManifests({ root, allowDangerousTypes: true, strict: true });
  console.log(`kbts manifests on ${files.length} CRDs' types: ${Math.round(performance.now() - started)} ms`);
  crds = new Map();
  for (const [path, text] of result.files) {
    if (path.startsWith("config/crd/bases/"))
      crds.set(path, load(text, { schema: CORE_SCHEMA }) as Record<string, unknown>);
  }
}, 600_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("generate --from-crd, then kbts manifests, on real CRDs", () => {
  it("finds the 41 CRDs of ../shared/oracles/real-crds", () => {
    expect(files).toHaveLength(41);
  });

  it.each(files)("%s: same names, scope, versions and structural schemas", (file) => {
    const c = cases.find((x) => x.file === file) as Case;
    const spec = c.source.crd.spec as NonNullable<typeof c.source.crd.spec>;
    const out = crds.get(`config/crd/bases/${spec.group}_${spec.names.plural}.yaml`) as {
      spec: typeof spec;
    };
    expect(out, `no CRD generated for ${file}`).toBeDefined();
    const names = { ...spec.names, listKind: spec.names.listKind ?? `${spec.names.kind}List` };
    expect(out.spec.names).toEqual({ singular: spec.names.kind.toLowerCase(), ...names });
    expect(out.spec.scope).toBe(spec.scope);
    const served = spec.versions.filter((v) => v.served);
    expect(out.spec.versions.map((v) => v.name).sort()).toEqual(served.map((v) => v.name).sort());
    let lost = 0;
    for (const want of served) {
      const got = out.spec.versions.find((v) => v.name === want.name) as (typeof served)[number];
      const crdLevel = (v: typeof want) => ({
        served: v.served,
        storage: served.length === 1 ? true : v.storage,
        deprecated: v.deprecated ?? false,
        deprecationWarning: v.deprecationWarning,
        subresources: v.subresources,
        additionalPrinterColumns: v.additionalPrinterColumns,
        selectableFields: v.selectableFields,
      });
      expect(crdLevel(got), `${file} ${want.name}`).toEqual(crdLevel(want));
      // The root's metadata is the API server's: none of the 41 constrains it (which a CRD may do only
      // for name and generateName), so dropping it below loses nothing.
      const meta = want.schema?.openAPIV3Schema?.properties?.metadata;
      expect(
        meta === undefined || JSON.stringify(meta) === '{"type":"object"}',
        `${file} root metadata`,
      ).toBe(true);
      const a = normalise(want.schema?.openAPIV3Schema ?? {}, true);
      const b = normalise(got.schema?.openAPIV3Schema ?? {}, true);
      expect(b.lost).toBe(0);
      expect(b.schema, `${file} ${want.name}`).toEqual(a.schema);
      lost += a.lost;
    }
    // Every construct no marker expresses is named in the generated file, and nothing else is.
    const notes = [...c.ts.values()].join("\n").match(/^\s*\/\/ kbts: no marker for /gm) ?? [];
    expect(notes.length, `${file}: notes for constructs without a marker`).toBe(lost);
  });
});
