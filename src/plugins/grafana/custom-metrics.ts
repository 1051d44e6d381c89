/**
 * grafana/custom-metrics/config.yaml: the user's own metrics, one dashboard panel each, as
 * Kubebuilder's grafana/v1-alpha reads it (metric, type, expr, unit; the query and unit filled in
 * from the type and the name when left out). Kubebuilder drops entries it cannot use without a
 * word; kbts refuses the file instead, naming the entry and its line, so a typo never becomes a
 * missing panel.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import { KbtsError } from "../../errors.js";
import { closest } from "../../markers/spelling.js";
import { yamlErrorText, yamlErrorWhere, yamlNodeWhere } from "../../yaml/where.js";

export const CUSTOM_METRICS_CONFIG = "grafana/custom-metrics/config.yaml";

const TYPES = ["counter", "gauge", "histogram"] as const;
export type CustomMetricType = (typeof TYPES)[number];

const KEYS = ["metric", "type", "expr", "unit"] as const;

/** Prometheus' metric name syntax. */
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/** One entry as written, checked. */
export interface CustomMetric {
  metric?: string;
  type?: CustomMetricType;
  expr?: string;
  unit?: string;
}

/** One panel of the custom-metrics dashboard. */
export interface CustomMetricPanel {
  title: string;
  expr: string;
  unit: string;
  /** Grafana's panel type: an `_info` metric (labels, value 1) reads as a table of its labels. */
  type: "timeseries" | "table";
  table: boolean;
}

/** The dashboard's selector: its job and namespace variables. */
const SELECTOR = '{job="$job", namespace="$namespace"}';

/** The panel's query when the entry gives none: a counter's rate, a histogram's P90, a gauge's value. */
function defaultExpr(metric: string, type: CustomMetricType): string {
  switch (type) {
    case "counter":
      return `sum(rate(${metric}${SELECTOR}[5m])) by (instance, pod)`;
    case "histogram": {
      // Kubebuilder's example names the _bucket series; the histogram's own name means the same.
      const buckets = metric.endsWith("_bucket") ? metric : `${metric}_bucket`;
      return `histogram_quantile(0.90, sum by (instance, le) (rate(${buckets}${SELECTOR}[5m])))`;
    }
    case "gauge":
      return `${metric}${SELECTOR}`;
  }
}

/** Grafana's unit from the metric's name, as Kubebuilder guesses it. */
function defaultUnit(metric: string): string {
  const name = metric.toLowerCase();
  if (name.includes("second") || name.includes("duration")) return "s";
  if (name.includes("byte")) return "bytes";
  if (name.includes("ratio")) return "percent";
  return "none";
}

export function customMetricPanel(m: CustomMetric): CustomMetricPanel {
  const metric = m.metric ?? "";
  const expr = m.expr ?? defaultExpr(metric, m.type ?? "gauge");
  return {
    title: metric ? `${metric} (${m.type ?? "expr"})` : expr,
    expr,
    unit: m.unit ?? defaultUnit(metric),
    type: metric.endsWith("_info") ? "table" : "timeseries",
    table: metric.endsWith("_info"),
  };
}

/**
 * The entries of config.yaml's `customMetrics` list (none when it is empty or missing). Anything
 * else is an error naming `file:line` and the entry, before anything is written.
 */
export function parseCustomMetricsConfig(text: string, file = CUSTOM_METRICS_CONFIG): CustomMetric[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const at = (node: unknown) => yamlNodeWhere(file, lines, node);
  const first = doc.errors[0];
  if (first) {
    throw new KbtsError(`not valid YAML: ${yamlErrorText(first)}`, {
      where: yamlErrorWhere(file, first),
      fix: "fix the YAML (the comment at the top of the file shows an example)",
    });
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return [];
  if (!isMap(root)) {
    throw new KbtsError("the file must be a mapping with a customMetrics list", {
      where: at(root),
      fix: "start it with `customMetrics:` and list one entry per metric below it",
    });
  }
  for (const pair of root.items) {
    const key = String((pair.key as { value?: unknown })?.value);
    if (key !== "customMetrics") {
      throw new KbtsError(`unknown key ${JSON.stringify(key)}`, {
        where: at(pair.key),
        fix: "the file has one key, customMetrics: a list of metrics",
      });
    }
  }
  const list = root.get("customMetrics", true);
  if (list === undefined || (isScalar(list) && list.value === null)) return [];
  if (!isSeq(list)) {
    throw new KbtsError("customMetrics must be a list", {
      where: at(list),
      fix: "write each metric as a list entry: `  - metric: <name>` with its type",
    });
  }
  return list.items.map((entry, i) => parseEntry(entry, `customMetrics[${i}]`, at));
}

function parseEntry(entry: unknown, name: string, at: (node: unknown) => string): CustomMetric {
  if (!isMap(entry)) {
    throw new KbtsError(`${name} must be a mapping (metric, type, expr, unit)`, {
      where: at(entry),
      fix: "write it as `- metric: <name>` with `type: counter|gauge|histogram` below it",
    });
  }
  const found: Partial<Record<(typeof KEYS)[number], string>> = {};
  for (const pair of entry.items) {
    const key = String((pair.key as { value?: unknown })?.value);
    if (!(KEYS as readonly string[]).includes(key)) {
      const near = closest(key, KEYS, { within: () => 2, ignoreCase: true });
      throw new KbtsError(`${name}: unknown key ${JSON.stringify(key)}`, {
        where: at(pair.key),
        fix: near ? `did you mean ${near}?` : `an entry has ${KEYS.join(", ")}`,
      });
    }
    const value = isScalar(pair.value) ? pair.value.value : undefined;
    if (typeof value !== "string" || value.trim() === "") {
      throw new KbtsError(`${name}: ${key} must be a non-empty string`, {
        where: at(pair.value ?? pair.key),
        fix: key === "type" ? `use one of ${TYPES.join(", ")}` : `give the ${key} as text`,
      });
    }
    found[key as (typeof KEYS)[number]] = value.trim();
  }
  const label = found.metric ? `${name} (${found.metric})` : name;
  if (found.metric !== undefined && !METRIC_NAME.test(found.metric)) {
    throw new KbtsError(`${label}: ${JSON.stringify(found.metric)} is not a Prometheus metric name`, {
      where: at(entry),
      fix: "a metric name is letters, digits, _ and : and does not start with a digit",
    });
  }
  const type = TYPES.find((t) => t === found.type?.toLowerCase());
  if (found.type !== undefined && type === undefined) {
    throw new KbtsError(`${label}: type ${JSON.stringify(found.type)} is not ${TYPES.join(", ")}`, {
      where: at(entry.get("type", true)),
      fix: `use one of ${TYPES.join(", ")} (or give the panel's query as expr)`,
    });
  }
  if (found.expr === undefined) {
    const missing = (["metric", "type"] as const).filter((k) => found[k] === undefined);
    if (missing.length > 0) {
      throw new KbtsError(`${label} has no ${missing.join(" and no ")}`, {
        where: at(entry),
        fix: `give the metric's name and its type (${TYPES.join(", ")}), or the panel's PromQL as expr`,
      });
    }
  }
  return { metric: found.metric, type, expr: found.expr, unit: found.unit };
}
