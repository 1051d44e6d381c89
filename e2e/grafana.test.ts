/**
 * The grafana/v1-alpha plugin's dashboards against a real Prometheus (Debian's package, from `make
 * tools`): a project scaffolded by the built CLI (`kbts init --plugins grafana/v1-alpha`, then a
 * custom-metrics config and `kbts edit --plugins grafana/v1-alpha`), a @kbts/runtime manager
 * reconciling ConfigMaps on the local control plane (some objects requeue, one fails), Prometheus
 * scraping its metrics endpoint with the labels a ServiceMonitor scrape adds (namespace, pod,
 * container). Then every query of every generated dashboard, and every variable's label_values, is
 * sent to Prometheus' HTTP API as Grafana would send it: each must be accepted without warnings and
 * return finite values (the variables: the scraped job, namespace and pod).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ConfigMap,
  controllerManagedBy,
  createClient,
  createLogger,
  createManager,
  type Manager,
} from "@kbts/runtime";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./support/eventually.js";
import { runKbts } from "./support/kbts.js";
import { spawnPrometheus } from "./support/prometheus.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-grafana-"));
const project = join(work, "fleet");
const DASHBOARDS = [
  "grafana/controller-runtime-metrics.json",
  "grafana/controller-resources-metrics.json",
  "grafana/custom-metrics/custom-metrics-dashboard.json",
];
const CONFIG = "grafana/custom-metrics/config.yaml";
// The labels a ServiceMonitor scrape of the manager's metrics Service adds, and their values here.
const TARGET = {
  job: "fleet-controller-manager-metrics-service",
  namespace: "fleet-system",
  pod: "fleet-controller-manager-7d4b9c-x2x7k",
  container: "manager",
};
/** Metrics the manager below exports, one of each kind the config takes (and an _info table). */
const CUSTOM_METRICS = `customMetrics:
  - metric: rest_client_requests_total
    type: counter
  - metric: controller_runtime_reconcile_time_seconds
    type: histogram
  - metric: workqueue_queue_duration_seconds_bucket
    type: histogram
  - metric: controller_runtime_max_concurrent_reconciles
    type: gauge
  - metric: nodejs_version_info
    type: gauge
  - expr: sum(rate(controller_runtime_reconcile_total{job="$job", namespace="$namespace", result="error"}[5m]))
    unit: ops
`;

let env: Environment;
let mgr: Manager;
let prometheus: Prometheus;
const stop = new AbortController();
let done: Promise<void> | undefined;

const kbts = async (args: string[]) => {
  const r = await runKbts(args, project);
  if (r.exitCode !== 0) throw new Error(`kbts ${args.join(" ")} exited ${r.exitCode}:\n${r.all}`);
  return r.stdout;
};

beforeAll(async () => {
  mkdirSync(project);
  const started = startEnvironment();
  await kbts([
    "init",
    "--domain",
    "example.com",
    "--repo",
    "example.com/fleet",
    "--plugins",
    "grafana/v1-alpha",
    "--skip-install",
  ]);
  writeFileSync(join(project, CONFIG), CUSTOM_METRICS);
  await kbts(["edit", "--plugins", "grafana/v1-alpha"]);
  env = await started;

  mgr = createManager({
    kubeConfig: env.kubeConfig,
    logger: createLogger({ level: process.env.KBTS_TEST_LOG_LEVEL ?? "silent" }),
    metricsBindAddress: "127.0.0.1:0",
    healthProbeBindAddress: "0",
    gracefulShutdownTimeoutMs: 5_000,
  });
  // Work for every panel: tick-* objects come back every 200 ms (adds, retries, queue and work
  // time), fail-* ones fail (errors, backoff).
  controllerManagedBy(mgr)
    .for(ConfigMap)
    .named("configmap")
    .complete({
      async reconcile(req) {
        if (req.name.startsWith("fail-")) throw new Error("this one always fails");
        return req.name.startsWith("tick-") ? { requeueAfter: 200 } : {};
      },
    });
  done = mgr.start(stop.signal);
  done.catch(() => {});
  await mgr.elected();
  const client = createClient(env.kubeConfig);
  for (const name of ["tick-a", "tick-b", "fail-a"]) {
    await client.create(ConfigMap, { metadata: { name, namespace: "default" }, data: { k: "v" } });
  }
  const metricsPort = mgr.httpAddress("metrics")?.port;
  prometheus = await startPrometheus(join(work, "prometheus"), `127.0.0.1:${metricsPort}`);
}, 120_000);

afterAll(async () => {
  await prometheus?.stop();
  stop.abort();
  await done?.catch(() => {});
  await env?.stop();
  if (process.env.KEEP_E2E !== "true") rmSync(work, { recursive: true, force: true });
});

interface Dashboard {
  title: string;
  panels: { title: string; targets?: { expr: string }[] }[];
  templating: { list: { name: string; type: string; query?: { query: string } }[] };
}

const dashboard = (path: string) => JSON.parse(readFileSync(join(project, path), "utf8")) as Dashboard;

/** A query as Grafana sends it with this target's job, namespace and pod picked in the variables. */
const substitute = (expr: string) =>
  expr
    .replaceAll("$job", TARGET.job)
    .replaceAll("$namespace", TARGET.namespace)
    .replaceAll("$pod", TARGET.pod)
    .replaceAll("$__rate_interval", "1m");

describe("kbts edit --plugins grafana/v1-alpha on a scaffolded project", () => {
  it("wrote the three dashboards, kept the custom-metrics config, and recorded the plugin", () => {
    expect(readFileSync(join(project, CONFIG), "utf8")).toBe(CUSTOM_METRICS);
    expect(readFileSync(join(project, "PROJECT"), "utf8")).toContain("grafana.kbts.dev/v1-alpha: {}");
    expect(dashboard(DASHBOARDS[2] ?? "").panels.map((p) => p.title)).toEqual([
      "rest_client_requests_total (counter)",
      "controller_runtime_reconcile_time_seconds (histogram)",
      "workqueue_queue_duration_seconds_bucket (histogram)",
      "controller_runtime_max_concurrent_reconciles (gauge)",
      "nodejs_version_info (gauge)",
      'sum(rate(controller_runtime_reconcile_total{job="$job", namespace="$namespace", result="error"}[5m]))',
    ]);
  });
});

describe("every dashboard query against a real Prometheus scraping the manager", () => {
  for (const path of DASHBOARDS) {
    it(`${path}: each variable finds the target, each panel query returns finite values`, async () => {
      const d = dashboard(path);
      const queries = d.panels.flatMap((p) =>
        (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })),
      );
      expect(queries.length).toBeGreaterThan(0);
      const variables = d.templating.list.filter((v) => v.type === "query");
      expect(variables.map((v) => v.name).sort()).toEqual(["job", "namespace", "pod"]);
      await eventually(
        async () => {
          for (const v of variables) {
            const values = await prometheus.labelValues(substitute(v.query?.query ?? ""));
            expect(values, `${d.title} variable ${v.name}`).toContain(TARGET[v.name as keyof typeof TARGET]);
          }
          const failed: string[] = [];
          for (const q of queries) {
            const expr = substitute(q.expr);
            const answer = await prometheus.query(expr);
            const values = answer.result.map((r) => Number(r.value[1]));
            if (answer.warnings.length > 0) failed.push(`${q.panel}: ${expr}: ${answer.warnings.join("; ")}`);
            else if (values.length === 0) failed.push(`${q.panel}: ${expr}: no data`);
            else if (!values.every(Number.isFinite)) failed.push(`${q.panel}: ${expr}: ${values.join(", ")}`);
          }
          expect(failed).toEqual([]);
        },
        30_000,
        500,
      );
    });
  }

  it("refuses a query that names a series the manager does not export (the check can fail)", async () => {
    const answer = await prometheus.query(substitute('controller_runtime_reconcile_totals{job="$job"}'));
    expect(answer.result).toEqual([]);
    await expect(prometheus.query("sum(rate(workqueue_depth[5m]) by")).rejects.toThrow(/bad_data/);
  });
});

interface Prometheus {
  query(expr: string): Promise<{ result: { value: [number, string] }[]; warnings: string[] }>;
  /** What Grafana's `label_values(selector, label)` variable query lists. */
  labelValues(variableQuery: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** Prometheus scraping one target every second, with the target's ServiceMonitor labels. */
async function startPrometheus(dir: string, target: string): Promise<Prometheus> {
  const { job, ...labels } = TARGET;
  const p = await spawnPrometheus(
    dir,
    [
      "global: { scrape_interval: 1s }",
      "scrape_configs:",
      `- job_name: ${job}`,
      `  static_configs: [{ targets: ["${target}"], labels: ${JSON.stringify(labels)} }]`,
      "",
    ].join("\n"),
  );
  const prometheus: Prometheus = {
    async query(expr) {
      const answer = await p.api<{ result: { value: [number, string] }[] }>(
        `/api/v1/query?query=${encodeURIComponent(expr)}`,
      );
      return { result: answer.data.result, warnings: answer.warnings };
    },
    async labelValues(variableQuery) {
      const call = /^label_values\((.+),\s*(\w+)\)$/.exec(variableQuery.trim());
      if (!call) throw new Error(`not a label_values(selector, label) query: ${variableQuery}`);
      const [, selector = "", label = ""] = call;
      return (await p.api<string[]>(`/api/v1/label/${label}/values?match[]=${encodeURIComponent(selector)}`))
        .data;
    },
    stop: () => p.stop(),
  };
  // Up once it answers, and once the target has been scraped.
  await eventually(async () => expect((await prometheus.query("up")).result.length).toBe(1), 30_000, 200);
  return prometheus;
}
