/**
 * A 10 MB API types file still answers: `kbts manifests` on one generated file of ~10 MB (thousands
 * of interfaces with markers, a root kind that uses some of them). Prints the wall time and the peak
 * memory of the run; nothing is asserted (the issue asks for figures, not a timed test).
 *   npx tsx bench/large-types/main.ts [--mb N]
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { generateManifests } from "../../src/manifests/index.js";

const i = process.argv.indexOf("--mb");
const MB = i >= 0 ? Number(process.argv[i + 1]) : 10;

function typeBlock(n: number): string {
  const fields = Array.from(
    { length: 12 },
    (_, f) => `  // field${f} of Type${n}: a description long enough to be realistic for an API field.
  // +kubebuilder:validation:MaxLength=${64 + f}
  // +optional
  field${f}?: string;`,
  );
  return `// Type${n} is one of many generated types.\nexport interface Type${n} {\n${fields.join("\n")}\n}\n`;
}

const dir = mkdtempSync(join(tmpdir(), "kbts-bench-large-"));
try {
  mkdirSync(join(dir, "api/v1"), { recursive: true });
  writeFileSync(
    join(dir, "api/v1/groupversion_info.ts"),
    "// +groupName=large.kbts.test\nexport const GroupVersion = {};\n",
  );
  const parts = ['import type { ObjectMeta } from "@kbts/runtime";\n'];
  let size = 0;
  let n = 0;
  while (size < MB * 1024 * 1024) {
    const block = typeBlock(n++);
    parts.push(block);
    size += block.length;
  }
  const used = Array.from({ length: 50 }, (_, k) => `  // +optional\n  t${k}?: Type${k};`).join("\n");
  parts.push(`export interface LargeSpec {\n${used}\n}\n// +kubebuilder:object:root=true
export interface Large {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  spec: LargeSpec;\n}\n`);
  const file = join(dir, "api/v1/large_types.ts");
  writeFileSync(file, parts.join("\n"));
  const bytes = statSync(file).size;

  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const { files } = await generateManifests({ root: dir });
  const ms = performance.now() - started;
  const peak = process.resourceUsage().maxRSS * 1024;
  const crd = [...files.values()][0]?.length ?? 0;
  console.log(
    `large-types: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${n} interfaces -> ${files.size} file(s), CRD ${(crd / 1024).toFixed(0)} KB`,
  );
  console.log(
    `  wall ${(ms / 1000).toFixed(2)} s, peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB (before the run ${(rssBefore / 1024 / 1024).toFixed(0)} MB)`,
  );
  console.log("  anchor: answers (no hang, no crash); compare with a 50-kind project in bench/manifests");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
