/**
 * What a manager loads when it runs as in a pod (issue 32): a plain one (service account, no webhook,
 * HTTP/2 and tracing off) loads no kubeconfig parser, no webhook server, no node:http2 (from the sources,
 * unless Node itself loads it for an import of node:http, as Node 24 does; bundled, never) and no
 * OpenTelemetry; turning each on loads it. Each case is a child process started in-cluster
 * (KUBERNETES_SERVICE_HOST/PORT, a service-account directory) against a local TCP port that stands
 * for the API server: its first connection means the manager has started and made its first request
 * (the token file's reader loaded), and the child is then stopped and reports what it loaded.
 *
 * Twice: from the TypeScript sources (as `make run` and tsc's output load it: module by module), and
 * bundled as hack/build-bundle.mjs bundles an operator (esbuild, ESM with splitting), where code
 * loaded with import() is a chunk the plain manager never reads.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { type BuildOptions, build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "..", "..", "..");
const RUNTIME = join(REPO, "runtime", "src", "index.ts");
/** hack/build-bundle.mjs as `kbts init` writes it: its bundleOptions are the image's. */
const BUILD_BUNDLE = join(REPO, "testdata", "project-v1", "hack", "build-bundle.mjs");
type BundleOptions = (o: { entryPoints: Record<string, string>; outdir: string }) => BuildOptions & {
  metafile: true;
};

/** Records the modules the process loads: ESM (a load hook) at once, CommonJS and built-ins at exit. */
const HOOK = `import { createRequire, register } from "node:module";
import { writeFileSync } from "node:fs";
const out = process.env.MODULES_OUT;
register("data:text/javascript," + encodeURIComponent(\`import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(\${JSON.stringify(out + ".esm")}, url + "\\\\n");
  return next(url, context);
}\`));
process.on("exit", () => {
  writeFileSync(out, JSON.stringify({
    cjs: Object.keys(createRequire(import.meta.url).cache),
    builtins: process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => "node:" + m.slice(13)),
  }));
});
`;

/** A manager with one controller; LAZY_ON=1 registers a webhook and turns on HTTP/2 and tracing. */
const CHILD = `import { ConfigMap, controllerManagedBy, createManager, setupSignalHandler } from ${JSON.stringify(RUNTIME)};
const on = process.env.LAZY_ON === "1";
const mgr = createManager({
  metricsBindAddress: "0",
  healthProbeBindAddress: "0",
  webhookServer: { port: 0, host: "127.0.0.1" },
  enableHTTP2: on,
  ...(on ? { tracerProvider: { getTracer: () => undefined } } : {}),
});
controllerManagedBy(mgr).for(ConfigMap).named("plain").complete({ async reconcile() { return undefined; } });
if (on) mgr.getWebhookServer().register("/validate", (_req, res) => res.end("{}"));
await mgr.start(setupSignalHandler());
`;

interface Loaded {
  /** Paths of the module files loaded (ESM and CommonJS). */
  files: string[];
  /** node's built-in modules loaded ("node:http2"). */
  builtins: string[];
}

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "kbts-lazy-loading-"));
  writeFileSync(join(dir, "hook.mjs"), HOOK);
  writeFileSync(join(dir, "child.mts"), CHILD);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the child in-cluster until its first request, then stops it. `kubeconfig`: with $KUBECONFIG
 * naming a kubeconfig file (which loadKubeConfig reads before the service account).
 */
async function run(
  args: string[],
  options: { on: boolean; kubeconfig: boolean; name: string },
): Promise<Loaded> {
  let connected!: () => void;
  const firstRequest = new Promise<void>((resolve) => {
    connected = resolve;
  });
  const api = createServer((socket) => {
    connected();
    socket.destroy();
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const port = (api.address() as { port: number }).port;
  // A pod's service account: the token and CA the kubelet mounts (the CA is never used: nothing answers TLS).
  const sa = mkdtempSync(join(dir, `${options.name}-`));
  writeFileSync(join(sa, "token"), "a-token");
  writeFileSync(join(sa, "ca.crt"), "not a certificate");
  writeFileSync(join(sa, "namespace"), "default");
  const kubeconfig = join(sa, "kubeconfig");
  writeFileSync(
    kubeconfig,
    `apiVersion: v1
kind: Config
current-context: x
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:${port}"}
users:
- name: u
  user: {token: a-token}
contexts:
- name: x
  context: {cluster: c, user: u}
`,
  );
  const out = join(sa, "modules.json");
  const child = spawn(process.execPath, ["--import", join(dir, "hook.mjs"), ...args], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH,
      HOME: sa,
      KUBERNETES_SERVICE_HOST: "127.0.0.1",
      KUBERNETES_SERVICE_PORT: String(port),
      KBTS_SERVICE_ACCOUNT_DIR: sa,
      MODULES_OUT: out,
      LAZY_ON: options.on ? "1" : "0",
      ...(options.kubeconfig ? { KUBECONFIG: kubeconfig } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const first = await Promise.race([firstRequest.then(() => true), exited.then(() => false)]);
  if (first) child.kill("SIGTERM");
  const code = await exited;
  api.close();
  expect({ first, code, output: code === 0 ? "" : output }).toEqual({ first: true, code: 0, output: "" });
  const recorded = JSON.parse(readFileSync(out, "utf8")) as { cjs: string[]; builtins: string[] };
  const esm = existsSync(`${out}.esm`) ? readFileSync(`${out}.esm`, "utf8").split("\n") : [];
  const files = esm.filter((u) => u.startsWith("file:")).map((u) => new URL(u).pathname);
  return { files: [...new Set([...files, ...recorded.cjs])], builtins: recorded.builtins };
}

type Part = "kubeconfigParser" | "webhookServer" | "http2" | "opentelemetry";

/**
 * Which of these optional parts a run loaded: by the files of their packages and modules, or, in a
 * bundle, by the chunk chunkOf names for them.
 */
function loadedParts(
  loaded: Loaded,
  which: Part[],
  chunkOf: (part: Part) => string | undefined = () => undefined,
): Partial<Record<Part, boolean>> {
  const file = (part: Part, re: RegExp) => {
    const chunk = chunkOf(part);
    return loaded.files.some((f) => (chunk ? basename(f) === chunk : re.test(f)));
  };
  const is: Record<Part, () => boolean> = {
    kubeconfigParser: () => file("kubeconfigParser", /\/node_modules\/js-yaml\//),
    webhookServer: () => file("webhookServer", /\/runtime\/src\/webhookcerts\/serving\.ts$/),
    http2: () => loaded.builtins.includes("node:http2"),
    opentelemetry: () => file("opentelemetry", /\/node_modules\/@opentelemetry\//),
  };
  return Object.fromEntries(which.map((part) => [part, is[part]()]));
}

const all = (which: Part[], value: boolean) => Object.fromEntries(which.map((part) => [part, value]));

/**
 * Whether this Node loads node:http2 for any ES module that imports node:http: Node 24 does (building
 * the module namespace of node:http reads its lazy exports), Node 20 does not. A manager cannot load
 * less than the platform under it, so with HTTP/2 off it must load http2 exactly when this does.
 */
function nodeHttpLoadsHttp2(): boolean {
  const probe = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      'await import("node:http"); process.stdout.write(String(process.moduleLoadList.includes("NativeModule http2")))',
    ],
    { encoding: "utf8" },
  );
  expect(probe.status, probe.stderr).toBe(0);
  return probe.stdout === "true";
}

/** What a plain manager may load: none of the parts, but http2 when the platform loads it anyway. */
const plain = (which: Part[]) => ({
  ...all(which, false),
  ...(which.includes("http2") ? { http2: nodeHttpLoadsHttp2() } : {}),
});

describe("a manager started in a cluster", () => {
  describe("from the TypeScript sources", () => {
    const tsx = () => ["--import", "tsx", join(dir, "child.mts")];
    // Not the webhook server: the barrel (@kbts/runtime's index) loads every runtime module, so its
    // code is told apart in the bundle below, where the manager's import() of it is a chunk.
    const SRC_PARTS: Part[] = ["kubeconfigParser", "http2", "opentelemetry"];

    it("loads no kubeconfig parser, HTTP/2 or OpenTelemetry when it needs none", async () => {
      const loaded = await run(tsx(), { on: false, kubeconfig: false, name: "src-plain" });
      expect(loadedParts(loaded, SRC_PARTS)).toEqual(plain(SRC_PARTS));
      expect(loaded.files.some((f) => f.endsWith("/runtime/src/manager/manager.ts"))).toBe(true);
    }, 60_000);

    it("loads each when it is turned on", async () => {
      const loaded = await run(tsx(), { on: true, kubeconfig: true, name: "src-on" });
      expect(loadedParts(loaded, SRC_PARTS)).toEqual(all(SRC_PARTS, true));
    }, 60_000);
  });

  describe("bundled as hack/build-bundle.mjs bundles an operator", () => {
    /** The dynamic-import target chunk of each lazily loaded part, from esbuild's metafile. */
    const chunks = new Map<Part, string>();
    const bundled = () => [join(dir, "bundle", "main.mjs")];
    // Not the YAML parser: it is bundled as CommonJS that runs only when required, in no chunk of its own.
    const BUNDLE_PARTS: Part[] = ["webhookServer", "http2", "opentelemetry"];

    beforeAll(async () => {
      // The scaffolded projects' own build script (here a golden project's copy of the template).
      const { bundleOptions } = (await import(BUILD_BUNDLE)) as { bundleOptions: BundleOptions };
      const result = await build({
        ...bundleOptions({ entryPoints: { main: join(dir, "child.mts") }, outdir: join(dir, "bundle") }),
        sourcemap: false,
        logLevel: "silent",
      });
      for (const [file, output] of Object.entries(result.metafile.outputs)) {
        const entry = output.entryPoint ?? "";
        if (entry.endsWith("runtime/src/webhookcerts/serving.ts"))
          chunks.set("webhookServer", basename(file));
        if (/node_modules\/@opentelemetry\/api\/build\/esm\/index\.js$/.test(entry)) {
          chunks.set("opentelemetry", basename(file));
        }
      }
      expect([...chunks.keys()].sort()).toEqual(["opentelemetry", "webhookServer"]);
    }, 60_000);

    // Not even the http2 node 24 loads for an import of node:http: the bundle require()s built-ins.
    it("imports no webhook server, HTTP/2 or OpenTelemetry when it needs none", async () => {
      const loaded = await run(bundled(), { on: false, kubeconfig: false, name: "bundle-plain" });
      expect(loadedParts(loaded, BUNDLE_PARTS, (p) => chunks.get(p))).toEqual(all(BUNDLE_PARTS, false));
    }, 60_000);

    it("imports each when it is turned on", async () => {
      const loaded = await run(bundled(), { on: true, kubeconfig: true, name: "bundle-on" });
      expect(loadedParts(loaded, BUNDLE_PARTS, (p) => chunks.get(p))).toEqual(all(BUNDLE_PARTS, true));
    }, 60_000);
  });
});
