import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { metricsRegistry, registerProcessMetrics } from "../../../runtime/src/metrics/index.js";
import { readTree } from "../../../testdata/golden.js";
import { runAlphaGenerate } from "../../commands/alpha-generate.js";
import { runEdit } from "../../commands/edit.js";
import { runInit } from "../../commands/index.js";
import { parseCustomMetricsConfig } from "./custom-metrics.js";
import { CUSTOM_METRICS_CONFIG, DASHBOARDS, GRAFANA_PLUGIN_KEY } from "./index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kbts-grafana-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string, root = dir) => readFileSync(join(root, path), "utf8");
const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const edit = (flags: { force?: boolean } = {}) => runEdit(dir, { plugins: ["grafana/v1-alpha"], ...flags });

async function project(plugins?: string[]): Promise<void> {
  await runInit(dir, {
    domain: "example.com",
    repo: "example.com/fleet",
    projectName: "fleet",
    runtime: "registry",
    plugins,
  });
}

interface Dashboard {
  title: string;
  panels: {
    type: string;
    title: string;
    fieldConfig?: { defaults: { unit: string } };
    targets?: { expr: string }[];
  }[];
  templating: { list: { name: string; query?: string | { query: string } }[] };
}
const dashboard = (path: string, root = dir) => JSON.parse(read(path, root)) as Dashboard;
const exprs = (d: Dashboard) => d.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));

const CONFIG = `customMetrics:
  - metric: fleet_ships_total
    type: counter
  - metric: fleet_dock_wait_seconds
    type: histogram
  - metric: fleet_cargo_bytes
    type: Gauge
  - metric: fleet_build_info
    type: gauge
  - metric: fleet_load_ratio
    type: gauge
    unit: percentunit
    expr: max(fleet_load_ratio) by (dock)
`;

describe("kbts init --plugins grafana/v1-alpha", () => {
  it("writes both dashboards and the custom-metrics config, and records the plugin in PROJECT", async () => {
    await project(["grafana/v1-alpha"]);
    const tree = readTree(dir);
    expect(tree.has("cmd/main.ts")).toBe(true);
    expect([...tree.keys()].filter((p) => p.startsWith("grafana/")).sort()).toEqual([
      DASHBOARDS.resources,
      DASHBOARDS.runtime,
      CUSTOM_METRICS_CONFIG,
    ]);
    const config = parse(read("PROJECT"));
    expect(config.layout).toEqual(["typescript.kbts.dev/v1", GRAFANA_PLUGIN_KEY]);
    expect(config.plugins).toEqual({ [GRAFANA_PLUGIN_KEY]: {} });
    expect(read("PROJECT")).toContain(`  ${GRAFANA_PLUGIN_KEY}: {}\n`);
    expect(dashboard(DASHBOARDS.runtime).title).toBe("fleet: Controller-Runtime-Metrics");
    expect(dashboard(DASHBOARDS.resources).title).toBe("fleet: Controller-Resources-Metrics");
    // The scaffolded config lists nothing yet: no custom dashboard.
    expect(parseCustomMetricsConfig(read(CUSTOM_METRICS_CONFIG))).toEqual([]);
  });
});

describe("the dashboards' queries", () => {
  it("read only series @kbts/runtime exports, filtered by the dashboard's job and namespace", async () => {
    await project(["grafana/v1-alpha"]);
    registerProcessMetrics(metricsRegistry);
    const exported = new Set(
      (await metricsRegistry.getMetricsAsJSON()).flatMap((m) =>
        String(m.type) === "histogram" ? [`${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`] : [m.name],
      ),
    );
    for (const path of [DASHBOARDS.runtime, DASHBOARDS.resources]) {
      const d = dashboard(path);
      const queries = exprs(d);
      expect(queries.length).toBeGreaterThan(3);
      for (const q of queries) {
        const series = [...q.matchAll(/([a-z_:][a-z0-9_:]*)\{/g)].map((m) => m[1] ?? "");
        expect(series.length, q).toBeGreaterThan(0);
        for (const s of series) expect(exported, `${path}: ${q}`).toContain(s);
        expect(q).toContain('job="$job", namespace="$namespace"');
      }
      // Every variable a query names is one the dashboard defines.
      const variables = new Set(d.templating.list.map((v) => v.name));
      for (const q of queries) {
        for (const [, v] of q.matchAll(/\$(\w+)/g)) expect(variables, q).toContain(v);
      }
      expect(d.panels.map((p) => p.title)).not.toContain("");
    }
    // Kubebuilder's panels are all there, on controller-runtime's names.
    const runtime = exprs(dashboard(DASHBOARDS.runtime)).join("\n");
    for (const name of [
      "controller_runtime_active_workers",
      "controller_runtime_reconcile_total",
      "controller_runtime_reconcile_errors_total",
      "workqueue_depth",
      "workqueue_queue_duration_seconds_bucket",
      "workqueue_adds_total",
      "workqueue_unfinished_work_seconds",
      "workqueue_work_duration_seconds_bucket",
      "workqueue_retries_total",
    ]) {
      expect(runtime).toContain(`${name}{`);
    }
    const resources = exprs(dashboard(DASHBOARDS.resources)).join("\n");
    expect(resources).toContain("process_cpu_seconds_total{");
    expect(resources).toContain("process_resident_memory_bytes{");
  });
});

describe("kbts edit --plugins grafana/v1-alpha", () => {
  it("adds the plugin to a project, and makes a panel per entry of the custom-metrics config", async () => {
    await project();
    let result = await edit();
    expect(result.written.sort()).toEqual(
      ["PROJECT", DASHBOARDS.resources, DASHBOARDS.runtime, CUSTOM_METRICS_CONFIG].sort(),
    );
    expect(result.next).toContain(CUSTOM_METRICS_CONFIG);
    const config = parse(read("PROJECT"));
    expect(config.layout).toEqual(["typescript.kbts.dev/v1"]);
    expect(config.plugins).toEqual({ [GRAFANA_PLUGIN_KEY]: {} });

    write(CUSTOM_METRICS_CONFIG, CONFIG);
    result = await edit();
    expect(result.written).toContain(DASHBOARDS.custom);
    expect(read(CUSTOM_METRICS_CONFIG)).toBe(CONFIG);
    const panels = dashboard(DASHBOARDS.custom).panels.map((p) => ({
      type: p.type,
      title: p.title,
      unit: p.fieldConfig?.defaults.unit,
      expr: p.targets?.[0]?.expr,
    }));
    const sel = '{job="$job", namespace="$namespace"}';
    expect(panels).toEqual([
      {
        type: "timeseries",
        title: "fleet_ships_total (counter)",
        unit: "none",
        expr: `sum(rate(fleet_ships_total${sel}[5m])) by (instance, pod)`,
      },
      {
        type: "timeseries",
        title: "fleet_dock_wait_seconds (histogram)",
        unit: "s",
        expr: `histogram_quantile(0.90, sum by (instance, le) (rate(fleet_dock_wait_seconds_bucket${sel}[5m])))`,
      },
      {
        type: "timeseries",
        title: "fleet_cargo_bytes (gauge)",
        unit: "bytes",
        expr: `fleet_cargo_bytes${sel}`,
      },
      { type: "table", title: "fleet_build_info (gauge)", unit: "none", expr: `fleet_build_info${sel}` },
      {
        type: "timeseries",
        title: "fleet_load_ratio (gauge)",
        unit: "percentunit",
        expr: "max(fleet_load_ratio) by (dock)",
      },
    ]);
    expect(dashboard(DASHBOARDS.custom).templating.list.map((v) => v.name)).toEqual([
      "datasource",
      "namespace",
      "job",
      "pod",
    ]);
  });

  it("regenerates the dashboards but never the config, not even with --force", async () => {
    await project(["grafana/v1-alpha"]);
    write(DASHBOARDS.runtime, "{}");
    write(CUSTOM_METRICS_CONFIG, "# mine\ncustomMetrics: []\n");
    const result = await edit({ force: true });
    expect(result.written).not.toContain(CUSTOM_METRICS_CONFIG);
    expect(read(CUSTOM_METRICS_CONFIG)).toBe("# mine\ncustomMetrics: []\n");
    expect(dashboard(DASHBOARDS.runtime).panels.length).toBeGreaterThan(5);
  });

  const invalid: [string, string, RegExp, string][] = [
    ["not YAML", "customMetrics:\n  - metric: [a\n", /not valid YAML/, `${CUSTOM_METRICS_CONFIG}:3:1`],
    [
      "a list at the top",
      "- metric: a\n",
      /must be a mapping with a customMetrics list/,
      `${CUSTOM_METRICS_CONFIG}:1`,
    ],
    [
      "a misspelt top key",
      "customMetric:\n  - metric: a\n",
      /unknown key "customMetric"/,
      `${CUSTOM_METRICS_CONFIG}:1`,
    ],
    [
      "customMetrics not a list",
      "customMetrics:\n  metric: a\n",
      /customMetrics must be a list/,
      `${CUSTOM_METRICS_CONFIG}:2`,
    ],
    [
      "an entry that is not a mapping",
      "customMetrics:\n  - metric: a_total\n    type: counter\n  - b_total\n",
      /customMetrics\[1\] must be a mapping/,
      `${CUSTOM_METRICS_CONFIG}:4`,
    ],
    [
      "an unknown type",
      "customMetrics:\n  - metric: a_total\n    type: summary\n",
      /customMetrics\[0\] \(a_total\): type "summary" is not counter, gauge, histogram/,
      `${CUSTOM_METRICS_CONFIG}:3`,
    ],
    [
      "no type",
      "customMetrics:\n  - metric: a_total\n",
      /customMetrics\[0\] \(a_total\) has no type/,
      `${CUSTOM_METRICS_CONFIG}:2`,
    ],
    [
      "no metric",
      "customMetrics:\n  - type: gauge\n",
      /customMetrics\[0\] has no metric/,
      `${CUSTOM_METRICS_CONFIG}:2`,
    ],
    [
      "a misspelt key",
      "customMetrics:\n  - metric: a_total\n    type: counter\n    uint: s\n",
      /customMetrics\[0\]: unknown key "uint"/,
      `${CUSTOM_METRICS_CONFIG}:4`,
    ],
    [
      "a name Prometheus refuses",
      "customMetrics:\n  - metric: 9lives\n    type: gauge\n",
      /customMetrics\[0\] \(9lives\): "9lives" is not a Prometheus metric name/,
      `${CUSTOM_METRICS_CONFIG}:2`,
    ],
    [
      "an empty unit",
      "customMetrics:\n  - metric: a_total\n    type: counter\n    unit: ''\n",
      /customMetrics\[0\]: unit must be a non-empty string/,
      `${CUSTOM_METRICS_CONFIG}:4`,
    ],
  ];
  for (const [what, text, message, where] of invalid) {
    it(`refuses a config with ${what}, naming the file and entry, and writes nothing`, async () => {
      await project(["grafana/v1-alpha"]);
      write(DASHBOARDS.runtime, "{}");
      write(CUSTOM_METRICS_CONFIG, text);
      const before = readTree(dir);
      await expect(edit()).rejects.toMatchObject({ message: expect.stringMatching(message), where });
      expect(readTree(dir)).toEqual(before);
    });
  }

  it("suggests the key meant", () => {
    expect(() => parseCustomMetricsConfig("customMetrics:\n  - metric: a\n    typ: gauge\n")).toThrow(
      expect.objectContaining({ fix: "did you mean type?" }),
    );
  });
});

describe("kbts alpha generate with grafana/v1-alpha", () => {
  it("replays the plugin and keeps the user's custom-metrics config", async () => {
    await project();
    await edit();
    write(CUSTOM_METRICS_CONFIG, CONFIG);
    await edit();
    const out = `${dir}-out`;
    try {
      await runAlphaGenerate(dir, { outputDir: out });
      const expected = readTree(dir);
      const got = readTree(out);
      for (const path of [
        CUSTOM_METRICS_CONFIG,
        DASHBOARDS.custom,
        DASHBOARDS.runtime,
        DASHBOARDS.resources,
        "PROJECT",
      ]) {
        expect(expected.get(path), path).toBeDefined();
        expect(got.get(path), path).toEqual(expected.get(path));
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
