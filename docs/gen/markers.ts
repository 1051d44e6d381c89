/**
 * The marker reference page, from the registry `kbts manifests` parses with (the same definitions
 * `--list-markers` prints), so a new marker appears here with its arguments and help, or fails the
 * docs test when it has no help. Each example is the first use of the marker in testdata/markers/
 * (a case compared with controller-gen's output), so it is a marker that is known to work.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { compareStrings } from "../../src/compare.js";
import { registry } from "../../src/manifests/generators.js";
import { describeType } from "../../src/markers/args.js";
import { usage } from "../../src/markers/parse.js";
import type { MarkerDefinition } from "../../src/markers/registry.js";
import { REPO } from "./paths.js";

/** The anchor of a marker's section: `+kubebuilder:validation:Minimum` is `kubebuilder-validation-minimum`. */
export const markerAnchor = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** Every marker kbts knows, sorted by name: one entry per name (a name may have one definition per target). */
export function markerDefinitions(): MarkerDefinition[][] {
  const byName = new Map<string, MarkerDefinition[]>();
  for (const d of registry.definitions()) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
  return [...byName.keys()].sort(compareStrings).map((n) => byName.get(n) ?? []);
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "expected" && e.name !== "go" && e.name !== "node_modules") out.push(...tsFiles(p));
    } else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out.sort(compareStrings);
}

/** The first line of testdata/markers (then the golden projects' APIs) using each marker, by name. */
function examples(names: string[]): Map<string, { line: string; where: string }> {
  const roots = [join(REPO, "testdata/markers"), join(REPO, "testdata/project-crontab/api")];
  const found = new Map<string, { line: string; where: string }>();
  const wanted = new Set(names);
  for (const root of roots) {
    for (const file of tsFiles(root)) {
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((text, i) => {
        const m = /^\s*\/\/\s*\+([A-Za-z0-9:._/-]+)/.exec(text);
        if (!m?.[1]) return;
        // A fields marker is written `+name:key=...`: try the name, then without its last segment.
        const full = m[1];
        const candidates = [full, full.slice(0, full.lastIndexOf(":"))];
        for (const name of candidates) {
          if (wanted.has(name) && !found.has(name)) {
            found.set(name, { line: text.trim(), where: `${relative(REPO, file)}:${i + 1}` });
          }
        }
      });
    }
  }
  return found;
}

const TARGET_WORDS: Record<string, string> = { package: "package", type: "type", field: "field" };

function argsTable(def: MarkerDefinition): string {
  const a = def.args;
  if (a.kind === "none") return "No arguments.";
  if (a.kind === "value")
    return `One value: ${describeType(a.type)}${a.optional ? " (optional: the marker alone means true)" : ""}.`;
  const rows = Object.entries(a.fields).map(
    ([k, f]) =>
      `| \`${k}\` | ${describeType(f.type).replaceAll("|", "\\|")} | ${f.optional ? "no" : "yes"} |`,
  );
  if (rows.length === 0) return "No arguments.";
  return ["| argument | type | required |", "| --- | --- | --- |", ...rows].join("\n");
}

/** Text safe in markdown outside code: Vue reads `{{` and `<tag` in a page as template syntax. */
export const escapeMd = (s: string): string =>
  s.replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("{{", "&#123;&#123;");

export function markersPage(): string {
  const named = markerDefinitions();
  const defs = named.map((ds) => ds[0] as MarkerDefinition);
  const ex = examples(defs.map((d) => d.name));
  const groups = new Map<string, MarkerDefinition[]>();
  for (const d of defs) {
    const prefix = d.name.includes(":") ? d.name.slice(0, d.name.indexOf(":")) : d.name;
    const key = ["kubebuilder", "kbts", "k8s"].includes(prefix) ? prefix : "other";
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const out = [
    "---",
    "outline: [2, 2]",
    "---",
    "",
    "# Markers",
    "",
    `Every marker \`kbts manifests\` understands (${defs.length}), generated from its marker registry: the`,
    "same definitions `kbts manifests --list-markers` prints and the parser reads. Markers are `//` comments",
    "on a package (`groupversion_info.ts`), a type or a field. Each example is the first use of the marker",
    "in `testdata/markers/`, whose cases are compared with controller-gen's output.",
    "",
  ];
  const titles: Record<string, string> = {
    kubebuilder: "Kubebuilder markers (`+kubebuilder:...`)",
    k8s: "Declarative validation (`+k8s:...`)",
    kbts: "kbts' own markers (`+kbts:...`)",
    other: "Other markers",
  };
  for (const key of ["kubebuilder", "k8s", "kbts", "other"]) {
    const list = groups.get(key);
    if (!list) continue;
    out.push(
      `**${titles[key]}:** ${list.map((d) => `[+${d.name}](#${markerAnchor(d.name)})`).join(", ")}`,
      "",
    );
  }
  for (const ds of named) {
    const d = ds[0] as MarkerDefinition;
    out.push(`## +${d.name} {#${markerAnchor(d.name)}}`, "");
    for (const def of ds) {
      const on = def.targets.map((t) => TARGET_WORDS[t] ?? t).join(", ");
      if (ds.length > 1) out.push(`**On a ${on}:**`, "");
      out.push(`${escapeMd(def.help)}`, "");
      out.push("```text", usage(def.name, def.args), "```", "");
      out.push(
        `**On:** ${on}.${def.repeatable ? " **Repeatable:** each instance adds to the result." : ""}`,
        "",
      );
      out.push(argsTable(def), "");
    }
    const e = ex.get(d.name);
    if (e) {
      out.push(`Example (\`${e.where}\`):`, "", "```ts", e.line, "```", "");
      const testCase = /^testdata\/markers\/[^/]+/.exec(e.where)?.[0];
      if (testCase && existsSync(join(REPO, testCase, "expected")))
        out.push(
          `What it makes: \`${testCase}/expected/\` (controller-gen's output; kbts writes the same).`,
          "",
        );
    }
  }
  return `${out.join("\n")}\n`;
}
