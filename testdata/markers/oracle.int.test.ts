/**
 * The oracle: controller-gen v0.23.0 (built from the Go module proxy) run on every Go twin must
 * reproduce the committed expected/ byte for byte, so expected/ really is controller-gen's output and
 * not a copy of kbts'. Cases with WHY.md are kbts' own output and are not checked here.
 *
 * An integration test (`*.int.test.ts`), like the others that drive a real binary: it checks Go's tool,
 * so it runs once per `make test`, not once per Node line as the unit tests do.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  CONTROLLER_GEN_VERSION,
  cachedControllerGen,
  goVersion,
  readTree,
  runControllerGen,
} from "../controller-gen/index.js";
import { expectedFiles, listCases, MARKERS_DIR } from "./cases.js";
import { lineDiff } from "./diff.js";

const hasGo = (await goVersion()) !== undefined;
const cases = listCases();

describe("the corpus", () => {
  it("has at least 60 cases, with a Go twin for every output case that Go can express", () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    for (const c of cases) {
      if (c.kind === "output") {
        expect(c.hasGo || c.differs, `${c.name} needs go/ or a WHY.md`).toBe(true);
        expect(expectedFiles(c).size, `${c.name} has no expected/ files`).toBeGreaterThan(0);
      } else {
        expect(c.hasGo, `${c.name} is an ${c.kind} case and must not have a Go twin`).toBe(false);
      }
      expect(
        existsSync(join(c.dir, "api")) || existsSync(join(c.dir, "internal")),
        `${c.name} has no TS`,
      ).toBe(true);
    }
  });

  it("gives every TS API package directory a Go twin package at the same path", () => {
    for (const c of cases.filter((x) => x.hasGo && existsSync(join(x.dir, "api")))) {
      const goDirs = new Set(readdirSync(join(c.dir, "go")));
      for (const d of readdirSync(join(c.dir, "api")))
        expect(goDirs.has(d), `${c.name}: go/${d} is missing`).toBe(true);
    }
  });
});

/** JSON field names of a case, "name?" when optional: TS `name?:` versus Go `json:"name,omitempty"`. */
function fieldNames(dir: string, pattern: RegExp, optional: (m: RegExpMatchArray) => boolean): string[] {
  const envelope = new Set(["apiVersion", "kind", "metadata", "items"]); // TypeMeta/ObjectMeta/List in Go
  const names: string[] = [];
  for (const [path, text] of readTree(dir)) {
    // Kind descriptors and conversion functions are code beside the types: their object literals are no fields.
    if (/(^|\/)(zz_generated\.kinds|[^/]+_conversion)\.ts$/.test(path)) continue;
    for (const m of text.matchAll(pattern)) {
      const name = m[1] ?? "";
      if (!envelope.has(name)) names.push(optional(m) ? `${name}?` : name);
    }
  }
  return names.sort();
}

describe("the Go twins", () => {
  // Partial/Pick/Omit have no Go spelling: that twin spells each derived type out, so fields repeat.
  const derived = new Set(["42-utility-types"]);
  for (const c of cases.filter((x) => x.hasGo && !derived.has(x.name) && existsSync(join(x.dir, "api")))) {
    it(`${c.name} declares the same JSON fields with the same optionality as its TS`, () => {
      const ts = fieldNames(
        join(c.dir, "api"),
        /^\s+(?:readonly\s+)?["']?([\w.-]+)["']?(\??):/gm,
        (m) => m[2] === "?",
      );
      const go = fieldNames(join(c.dir, "go"), /json:"([\w.-]+)(,omitempty)?"/g, (m) => m[2] !== undefined);
      expect(go).toEqual(ts);
    });
  }
});

describe.skipIf(!hasGo)(`controller-gen ${CONTROLLER_GEN_VERSION} reproduces expected/`, () => {
  let bin = "";
  beforeAll(async () => {
    const cg = await cachedControllerGen();
    if (!cg.ok) throw new Error(cg.reason);
    bin = cg.bin;
  });

  for (const c of cases.filter((x) => x.hasGo && !x.differs)) {
    it(c.name, async () => {
      const result = await runControllerGen(bin, {
        moduleDir: MARKERS_DIR,
        packages: `./${c.name}/...`,
        ...c.options,
      });
      if (!result.ok) throw new Error(`controller-gen failed on ${c.name}:\n${result.error}`);
      const expected = expectedFiles(c);
      expect([...result.files.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [path, want] of expected) {
        const got: string = result.files.get(path) ?? "";
        if (got !== want)
          expect.fail(
            `${c.name}/${path} is stale; run npx tsx testdata/markers/regen.ts\n${lineDiff(want, got)}`,
          );
      }
    }, 120_000);
  }
});

if (!hasGo)
  describe("controller-gen oracle", () => {
    it.skip("skipped: Go is not installed, so the expected YAML cannot be re-derived from controller-gen", () => {});
  });
