/**
 * Parity at a glance: one line per case, PASS or FAIL with the first reason.
 *   npx tsx testdata/markers/parity.ts [prefix...]
 * The same comparison as markers.test.ts, summarised for people rather than for vitest.
 */
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type Case,
  containsFragment,
  expectedFiles,
  expectedFragments,
  listCases,
  normalizeManifest,
} from "./cases.js";

const GENERATOR = fileURLToPath(new URL("../../src/manifests/index.ts", import.meta.url));

type Generate = (o: {
  root: string;
  allowDangerousTypes?: boolean;
  roleName?: string;
}) => Promise<{ files: Map<string, string>; warnings: unknown[] }>;

function text(v: unknown, c: Case): string {
  const f = (v as { format?: () => string } | undefined)?.format;
  const s = typeof f === "function" ? f.call(v) : v instanceof Error ? v.message : JSON.stringify(v);
  return s.split(`${c.dir}/`).join("");
}

function firstDifference(want: string, got: string): string {
  const a = want.split("\n");
  const b = got.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return `line ${i + 1}: want ${JSON.stringify(a[i]?.trim())}, got ${JSON.stringify(b[i]?.trim())}`;
  }
  return "";
}

async function check(generate: Generate, c: Case): Promise<string | undefined> {
  const opts = { root: c.dir, ...c.options };
  if (c.kind !== "output") {
    let out: string;
    try {
      const r = await generate(opts);
      if (c.kind === "error") return "no error raised";
      out = r.warnings.map((w) => text(w, c)).join("\n");
    } catch (err) {
      out = text(err, c);
    }
    const missing = expectedFragments(c).filter((f) => !containsFragment(out, f));
    return missing.length
      ? `message lacks ${JSON.stringify(missing)}; got: ${out.split("\n")[0]}`
      : undefined;
  }
  let result: Awaited<ReturnType<Generate>>;
  try {
    result = await generate(opts);
  } catch (err) {
    return `threw: ${text(err, c).split("\n")[0]}`;
  }
  const expected = expectedFiles(c);
  for (const p of expected.keys())
    if (!result.files.has(p)) return `missing ${p} (got ${[...result.files.keys()].join(", ") || "nothing"})`;
  for (const p of result.files.keys()) if (!expected.has(p)) return `unexpected ${p}`;
  for (const [p, want] of expected) {
    const d = firstDifference(normalizeManifest(want), normalizeManifest(result.files.get(p) ?? ""));
    if (d) return `${p.split("/").pop()} ${d}`;
  }
  // A CRD over client-side apply's size limit is right, and warned about (as markers.test.ts allows).
  const warnings = result.warnings
    .map((w) => text(w, c))
    .filter((w) => !/-byte limit of client-side apply/.test(w));
  if (!c.warns && warnings.length) return `unexpected warning: ${(warnings[0] ?? "").split("\n")[0]}`;
  const warned = warnings.join("\n");
  const unwarned = expectedFragments(c).filter((f) => !containsFragment(warned, f));
  if (unwarned.length) return `warnings lack ${JSON.stringify(unwarned)}; got: ${warned.split("\n")[0]}`;
  return undefined;
}

async function main(): Promise<void> {
  if (!existsSync(GENERATOR)) {
    console.log(`the generator is not there yet (${GENERATOR})`);
    process.exit(1);
  }
  const { generateManifests } = (await import(pathToFileURL(GENERATOR).href)) as {
    generateManifests: Generate;
  };
  const filters = process.argv.slice(2);
  const cases = listCases().filter((c) => filters.length === 0 || filters.some((f) => c.name.startsWith(f)));
  let pass = 0;
  for (const c of cases) {
    const why = await check(generateManifests, c);
    if (why === undefined) pass++;
    console.log(`${why === undefined ? "PASS" : "FAIL"} ${c.name.padEnd(32)} ${(why ?? "").slice(0, 220)}`);
  }
  console.log(`\n${pass}/${cases.length} cases pass`);
  process.exitCode = pass === cases.length ? 0 : 1;
}

await main();
