/**
 * The Go baseline of `bench/gpubudget --compare-go`: the GPUBudget operator ported to controller-runtime
 * in a Kubebuilder v4.16 scaffold (bench/gpubudget/go), built like controller-gen, as a tool: once, by
 * `make bench-go-operator`, into the user cache under a stamp of its sources, never at bench time.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { cachedGoTool, type GoTool, type GoToolBinary } from "../../e2e/tools/go-tool.js";

/** The fixture: a Kubebuilder v4.16.0 scaffold with the GPUBudget reconciler ported to Go. */
export const GO_OPERATOR_SOURCE = fileURLToPath(new URL("./go/", import.meta.url));

export const BUILD_TARGET = "make bench-go-operator";

/** The fixture's source files (go.mod, go.sum, *.go), sorted, relative to GO_OPERATOR_SOURCE. */
function sourceFiles(dir = GO_OPERATOR_SOURCE): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "bin") walk(p);
      } else if (/^go\.(mod|sum)$|\.go$/.test(entry.name)) {
        out.push(relative(GO_OPERATOR_SOURCE, p));
      }
    }
  };
  walk(dir);
  return out.sort();
}

/** A stamp of the fixture's sources: any edit builds a new binary, an unchanged tree reuses the cached one. */
export function goOperatorStamp(): string {
  const hash = createHash("sha256");
  for (const file of sourceFiles()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(GO_OPERATOR_SOURCE, file)));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/** `go build ./cmd` of the fixture, cached in ${XDG_CACHE_HOME:-~/.cache}/kbts/gpubudget-go/<stamp>/manager. */
export function goOperatorTool(): GoTool {
  return {
    label: "the Go operator",
    name: "gpubudget-go",
    stamp: goOperatorStamp(),
    binary: "manager",
    make: BUILD_TARGET,
    build: { module: GO_OPERATOR_SOURCE, package: "./cmd" },
  };
}

export type GoOperator = GoToolBinary;

/** The cached binary, for the bench: it never builds (the make target does). */
export async function cachedGoOperator(): Promise<GoOperator> {
  return cachedGoTool(goOperatorTool());
}
