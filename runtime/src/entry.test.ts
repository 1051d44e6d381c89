/**
 * What importing @kbts/runtime loads: an operator's fixed memory and start-up CPU are mostly the
 * modules its entry point pulls in (issue 17). client-node's index loads its whole generated API
 * (~800 modules, ~65 MiB resident); prom-client's index loads @opentelemetry/api (~90 modules); ajv,
 * CEL and the fake client are for tests; the YAML parser is for kubeconfig files, not a pod's service
 * account. Those are loaded only when used (a dynamic import(), or a require() in a function) or from
 * their own entry points (@kbts/runtime/fake, /envtest). manager/lazy-loading.test.ts runs a manager
 * and checks what it loads.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL(".", import.meta.url));

/**
 * Static value imports of one module (not `import type`, not dynamic import(), not a require() in a
 * function, which loads only when called: client/kubeconfig.ts's YAML parser).
 */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(
    /^(?:import|export)\s+(type\s+)?[^"';]*?from\s*"([^"]+)"|^import\s+"([^"]+)"/gm,
  )) {
    if (m[1]) continue;
    const spec = m[2] ?? m[3];
    if (spec) out.push(spec);
  }
  return out;
}

/**
 * Every package the entry module reaches through static imports (relative modules followed); with
 * `builtins`, node's built-in modules (node:*) instead.
 */
function packagesReached(entry: string, builtins = false): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith(".")) {
        const base = resolve(dirname(file), spec).replace(/\.js$/, "");
        const target = [`${base}.ts`, join(base, "index.ts")].find((p) => existsSync(p));
        if (target) visit(target);
      } else if (spec.startsWith("node:") === builtins) {
        packages.set(spec, file.slice(SRC.length));
      }
    }
  };
  visit(entry);
  return packages;
}

describe("the main entry point (@kbts/runtime)", () => {
  const reached = packagesReached(join(SRC, "index.ts"));

  it("statically loads only the packages an operator runs on", () => {
    expect([...reached.keys()].sort()).toEqual([
      "pino",
      "prom-client/lib/counter.js",
      "prom-client/lib/gauge.js",
      "prom-client/lib/histogram.js",
      "prom-client/lib/metrics/eventLoopLag.js",
      "prom-client/lib/metrics/gc.js",
      "prom-client/lib/metrics/heapSizeAndUsed.js",
      "prom-client/lib/metrics/heapSpacesSizeAndUsed.js",
      "prom-client/lib/metrics/osMemoryHeap.js",
      "prom-client/lib/metrics/processHandles.js",
      "prom-client/lib/metrics/processMaxFileDescriptors.js",
      "prom-client/lib/metrics/processOpenFileDescriptors.js",
      "prom-client/lib/metrics/processRequests.js",
      "prom-client/lib/metrics/processResources.js",
      "prom-client/lib/metrics/processStartTime.js",
      "prom-client/lib/metrics/version.js",
      "prom-client/lib/registry.js",
      "prom-client/lib/summary.js",
    ]);
  });

  // What a plain manager (no HTTP/2, no tracing) loads of node itself at start. node:http2 is loaded only
  // with enableHTTP2 (tls/server.ts), @opentelemetry/api only with a tracer provider (tracing.ts).
  it("statically loads none of node's HTTP/2", () => {
    expect([...packagesReached(join(SRC, "index.ts"), true).keys()].sort()).toEqual([
      "node:crypto",
      "node:fs",
      "node:fs/promises",
      "node:http",
      "node:https",
      "node:net",
      "node:os",
      "node:path",
      "node:perf_hooks",
      "node:tls",
      "node:util",
    ]);
  });

  it("finds a heavy import when there is one", () => {
    expect(packagesReached(join(SRC, "envtest", "fault-proxy.ts")).has("@kubernetes/client-node")).toBe(true);
    expect(packagesReached(join(SRC, "fake", "index.ts")).has("ajv")).toBe(true);
    expect(packagesReached(join(SRC, "envtest", "host-operator.ts"), true).has("node:https")).toBe(true);
  });
});
