/**
 * The dashboards section of the metrics page, from the dashboard JSON the scaffolds write: the
 * GPUBudget operator's (testdata/project-gpubudget/config/grafana) and the grafana/v1-alpha plugin's
 * (testdata/project-platform/grafana). Every panel with its queries, so the page shows what Grafana
 * will plot and cannot disagree with the files (e2e/grafana.test.ts runs the queries on Prometheus).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { escapeMd } from "./markers.js";
import { REPO } from "./paths.js";

export const DASHBOARDS = [
  "testdata/project-gpubudget/config/grafana/gpubudget-dashboard.json",
  "testdata/project-platform/grafana/controller-runtime-metrics.json",
  "testdata/project-platform/grafana/controller-resources-metrics.json",
  "testdata/project-platform/grafana/custom-metrics/custom-metrics-dashboard.json",
];

interface Target {
  expr?: string;
  legendFormat?: string;
}
interface Panel {
  type?: string;
  title?: string;
  description?: string;
  fieldConfig?: { defaults?: { unit?: string } };
  targets?: Target[];
  panels?: Panel[];
}
interface Dashboard {
  title?: string;
  description?: string;
  templating?: { list?: { name?: string; label?: string; query?: unknown; type?: string }[] };
  panels?: Panel[];
}

const queryText = (q: unknown): string =>
  typeof q === "string" ? q : typeof q === "object" && q && "query" in q ? String(q.query) : "";

function panelLines(p: Panel): string[] {
  const unit = p.fieldConfig?.defaults?.unit;
  const head = `**${escapeMd(p.title ?? "(untitled)")}** (${p.type ?? "panel"}${unit ? `, unit \`${unit}\`` : ""})`;
  const out = [head, ""];
  if (p.description) out.push(escapeMd(p.description), "");
  const queries = (p.targets ?? []).filter((t) => t.expr);
  if (queries.length) {
    out.push("```text");
    for (const t of queries) out.push(`${t.expr}${t.legendFormat ? `   # legend: ${t.legendFormat}` : ""}`);
    out.push("```", "");
  }
  return out;
}

export function dashboardsSection(): string {
  const out: string[] = [];
  for (const file of DASHBOARDS) {
    const d = JSON.parse(readFileSync(join(REPO, file), "utf8")) as Dashboard;
    out.push(`### ${escapeMd(d.title ?? file)}`, "", `\`${file}\``, "");
    if (d.description) out.push(escapeMd(d.description), "");
    const vars = (d.templating?.list ?? []).filter((v) => v.name);
    if (vars.length) {
      out.push("| variable | query |", "| --- | --- |");
      for (const v of vars) {
        const q = queryText(v.query);
        out.push(`| \`$${v.name}\` | ${q ? `\`${q.replaceAll("|", "\\|")}\`` : (v.type ?? "")} |`);
      }
      out.push("");
    }
    for (const p of d.panels ?? []) {
      if (p.type === "row") {
        out.push(`#### ${escapeMd(p.title ?? "")}`, "");
        for (const inner of p.panels ?? []) out.push(...panelLines(inner));
      } else out.push(...panelLines(p));
    }
  }
  return `${out.join("\n")}\n`;
}
