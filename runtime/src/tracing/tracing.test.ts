// Tracing is optional: without an SDK (the API's no-op tracer) and without the @opentelemetry/api
// package at all, controllers reconcile and the client calls the API server as before. Both run the
// same child script: a controller fed by a channel source whose reconcile GETs a ConfigMap from a
// local HTTP server through the RestClient.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { resourceOf, tracingWanted, useTracerProvider } from "./tracing.js";

const REPO = join(import.meta.dirname, "..", "..", "..");
const RUNTIME = pathToFileURL(join(REPO, "runtime", "src", "index.ts")).href;

const script = `import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { RestClient, channelSource, createUnmanagedController, enqueueRequestForObject, loadKubeConfig } from ${JSON.stringify(RUNTIME)};
const otel = await import("@opentelemetry/api").then(() => "loaded", (e) => e.code);
const server = createServer((req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ kind: "ConfigMap", path: req.url }));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const kubeconfig = join(import.meta.dirname, "kubeconfig");
writeFileSync(kubeconfig, JSON.stringify({
  apiVersion: "v1", kind: "Config", "current-context": "x",
  clusters: [{ name: "c", cluster: { server: "http://127.0.0.1:" + server.address().port, "insecure-skip-tls-verify": true } }],
  users: [{ name: "u", user: {} }], contexts: [{ name: "x", context: { cluster: "c", user: "u" } }],
}));
const rest = new RestClient(loadKubeConfig({ path: kubeconfig }));
let answer;
let reconciled;
const done = new Promise((r) => { reconciled = r; });
const source = channelSource(enqueueRequestForObject());
const controller = createUnmanagedController("traced", {
  reconciler: { async reconcile(req) {
    try {
      answer = await rest.request({ method: "GET", path: "/api/v1/namespaces/" + req.namespace + "/configmaps/" + req.name });
    } catch (err) {
      answer = String(err);
    }
    reconciled();
  } },
});
controller.watch(source);
const stop = new AbortController();
const running = controller.start(stop.signal);
source.emit({ apiVersion: "v1", kind: "ConfigMap", metadata: { namespace: "x", name: "y" } });
await done;
stop.abort();
await running;
server.close();
rest.close();
console.log(JSON.stringify({ otel, answer }));
`;

/** A resolve hook that makes the optional peer dependency missing, as in an install without it. */
const blockOtel = `import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(\`export async function resolve(specifier, context, next) {
  if (specifier === "@opentelemetry/api" || specifier.startsWith("@opentelemetry/api/")) {
    const err = new Error("Cannot find package '@opentelemetry/api'");
    err.code = "ERR_MODULE_NOT_FOUND";
    throw err;
  }
  return next(specifier, context);
}\`));
`;

async function runScript(withoutOtel: boolean): Promise<{ code: number | null; out: string }> {
  // Under the repo's node_modules, so the script's bare imports resolve as they would in a project.
  mkdirSync(join(REPO, "node_modules", ".cache"), { recursive: true });
  const dir = mkdtempSync(join(REPO, "node_modules", ".cache", "kbts-tracing-optional-"));
  writeFileSync(join(dir, "child.mts"), script);
  writeFileSync(join(dir, "block-otel.mjs"), blockOtel);
  const hooks = withoutOtel ? ["--import", join(dir, "block-otel.mjs")] : [];
  const child = spawn(process.execPath, ["--import", "tsx", ...hooks, join(dir, "child.mts")], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    out += d;
  });
  const code = await new Promise<number | null>((r) => child.on("exit", r));
  rmSync(dir, { recursive: true, force: true });
  return { code, out };
}

const answer = { kind: "ConfigMap", path: "/api/v1/namespaces/x/configmaps/y" };

describe("tracing hooks", () => {
  it("names API-call spans by resource and subresource, not by object", () => {
    expect(resourceOf("/api/v1/namespaces/ns/pods/p/status")).toBe("pods/status");
    expect(resourceOf("/api/v1/namespaces/ns/pods")).toBe("pods");
    expect(resourceOf("/api/v1/namespaces/ns")).toBe("namespaces");
    expect(resourceOf("/api/v1/namespaces")).toBe("namespaces");
    expect(resourceOf("/apis/apps/v1/namespaces/ns/deployments/d/scale")).toBe("deployments/scale");
    expect(resourceOf("/apis/coordination.k8s.io/v1/namespaces/ns/leases/l")).toBe("leases");
    expect(resourceOf("/api/v1/nodes/n")).toBe("nodes");
    expect(resourceOf("/version")).toBe("version");
  });

  it("is wanted (and @opentelemetry/api loaded) only with a tracer provider, given or registered globally", async () => {
    expect(tracingWanted()).toBe(false);
    const { trace } = await import("@opentelemetry/api");
    const { BasicTracerProvider } = await import("@opentelemetry/sdk-trace-base");
    expect(trace.setGlobalTracerProvider(new BasicTracerProvider())).toBe(true);
    try {
      expect(tracingWanted()).toBe(true);
    } finally {
      trace.disable();
    }
    expect(tracingWanted()).toBe(false);
    useTracerProvider({ getTracer: () => undefined });
    try {
      expect(tracingWanted()).toBe(true);
    } finally {
      useTracerProvider(undefined);
    }
    expect(tracingWanted()).toBe(false);
  });

  it("with @opentelemetry/api but no SDK registered, a controller reconciles and its API call answers", async () => {
    const { code, out } = await runScript(false);
    expect({ code, out }).toMatchObject({ code: 0 });
    expect(JSON.parse(out.trim().split("\n").at(-1) ?? "{}")).toEqual({ otel: "loaded", answer });
  }, 60_000);

  it("without the @opentelemetry/api package installed, the runtime loads, reconciles and calls the API", async () => {
    const { code, out } = await runScript(true);
    expect({ code, out }).toMatchObject({ code: 0 });
    expect(JSON.parse(out.trim().split("\n").at(-1) ?? "{}")).toEqual({
      otel: "ERR_MODULE_NOT_FOUND",
      answer,
    });
  }, 60_000);
});
