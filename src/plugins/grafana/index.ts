/**
 * `grafana/v1-alpha`: Grafana dashboards for any project, as Kubebuilder's grafana/v1-alpha writes
 * them: grafana/controller-runtime-metrics.json (reconciles, errors, work queues) and
 * grafana/controller-resources-metrics.json (the manager's CPU and memory), on the series
 * @kbts/runtime exports under controller-runtime's names, plus grafana/custom-metrics/config.yaml
 * (written once, never overwritten), from which grafana/custom-metrics/custom-metrics-dashboard.json
 * is made. `kbts edit --plugins grafana/v1-alpha` (re)writes the dashboards; at `kbts init` the
 * plugin writes the same. PROJECT records the plugin (with no settings, as Kubebuilder's).
 */
import type { ProjectConfig } from "../../project/config.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import type { TemplateFile } from "../../scaffold/template.js";
import type { Plugin, PluginContext } from "../types.js";
import { CUSTOM_METRICS_CONFIG, customMetricPanel, parseCustomMetricsConfig } from "./custom-metrics.js";

export const GRAFANA_PLUGIN_KEY = "grafana.kbts.dev/v1-alpha";
export { CUSTOM_METRICS_CONFIG } from "./custom-metrics.js";

const SET = "plugins/grafana";
export const DASHBOARDS = {
  runtime: "grafana/controller-runtime-metrics.json",
  resources: "grafana/controller-resources-metrics.json",
  custom: "grafana/custom-metrics/custom-metrics-dashboard.json",
} as const;

/** Height of one custom-metrics panel (each is the dashboard's whole width). */
const PANEL_HEIGHT = 7;

function file(path: string): TemplateFile {
  return { template: `${SET}/${path}.hbs`, set: SET, ifExists: "overwrite" };
}

/** Titles carry the project's name: Grafana wants titles unique within a folder. */
function title(config: ProjectConfig, what: string): string {
  return config.projectName ? `${config.projectName}: ${what}` : what;
}

/**
 * Writes the dashboards (always: they are generated) and the custom-metrics config when it is not
 * there yet; returns what was written, for the user. A config that is not valid stops the command
 * before anything is written.
 */
function scaffoldDashboards(scaffold: Scaffold, config: ProjectConfig): string[] {
  const text = scaffold.fs.read(CUSTOM_METRICS_CONFIG);
  const metrics = text === undefined ? [] : parseCustomMetricsConfig(text);
  const written = [
    scaffold.template(file(DASHBOARDS.runtime), { title: title(config, "Controller-Runtime-Metrics") }),
    scaffold.template(file(DASHBOARDS.resources), { title: title(config, "Controller-Resources-Metrics") }),
  ];
  // Written once: after that it is the user's input, and no run (not even --force) replaces it.
  if (text === undefined) written.push(scaffold.template(file(CUSTOM_METRICS_CONFIG), {}));
  if (metrics.length > 0) {
    const panels = metrics.map((m, i) => ({ ...customMetricPanel(m), id: i + 1, y: i * PANEL_HEIGHT }));
    written.push(
      scaffold.template(file(DASHBOARDS.custom), { title: title(config, "Custom-Metrics"), panels }),
    );
  }
  return written;
}

function record(config: ProjectConfig): void {
  config.plugins = { ...config.plugins, [GRAFANA_PLUGIN_KEY]: config.plugins?.[GRAFANA_PLUGIN_KEY] ?? {} };
}

export const grafanaPlugin: Plugin = {
  key: GRAFANA_PLUGIN_KEY,
  description: "Generates Grafana dashboards for the controller-runtime metrics and your own",
  init(ctx: PluginContext) {
    scaffoldDashboards(ctx.scaffold, ctx.config);
    record(ctx.config);
  },
  edit(ctx: PluginContext): string {
    const written = scaffoldDashboards(ctx.scaffold, ctx.config);
    record(ctx.config);
    const custom = written.includes(DASHBOARDS.custom)
      ? []
      : [
          `List your own metrics in ${CUSTOM_METRICS_CONFIG} and run kbts edit --plugins grafana/v1-alpha again for ${DASHBOARDS.custom}.`,
        ];
    return [
      `Grafana dashboards written: ${written.filter((p) => p !== CUSTOM_METRICS_CONFIG).join(", ")}.`,
      ...custom,
      "Import them in Grafana (Dashboards > New > Import) and pick the Prometheus data source that scrapes the manager (config/prometheus/monitor.yaml).",
    ].join("\n");
  },
};
