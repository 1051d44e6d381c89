/**
 * The benchmarks section of the performance page: each bench/<name>/main.ts's opening comment (what
 * it measures and how to run it), so the page lists every benchmark there is, with its command.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compareStrings } from "../../src/compare.js";
import { REPO } from "./paths.js";

/** The leading comment of a file, as plain lines (`/** *\/` or `//` style). */
export function leadingComment(source: string): string[] {
  const block = /^\/\*\*?([\s\S]*?)\*\//.exec(source);
  if (block?.[1] !== undefined) return block[1].split("\n").map((l) => l.replace(/^\s*\* ?/, ""));
  const lines: string[] = [];
  for (const l of source.split("\n")) {
    if (!l.startsWith("//")) break;
    lines.push(l.replace(/^\/\/ ?/, ""));
  }
  return lines;
}

export function benchSection(): string {
  const out: string[] = [];
  const names = readdirSync(join(REPO, "bench"), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(REPO, "bench", e.name, "main.ts")))
    .map((e) => e.name)
    .sort(compareStrings);
  for (const name of names) {
    const text = leadingComment(readFileSync(join(REPO, "bench", name, "main.ts"), "utf8"));
    while (text.length && text[0]?.trim() === "") text.shift();
    while (text.length && text[text.length - 1]?.trim() === "") text.pop();
    out.push(`### bench/${name}`, "", "```text", ...text, "```", "");
    out.push("```sh no-run", `KUBEBUILDER_ASSETS=... node --import tsx bench/${name}/main.ts`, "```", "");
  }
  return `${out.join("\n")}\n`;
}
