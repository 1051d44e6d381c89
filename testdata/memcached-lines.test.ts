/**
 * The line counts testdata/project-memcached's README states (issue 31: the controller on dependents
 * in ≤ 20% of the lines of the hand-written one), counted again on the golden controller, so the table
 * cannot drift from the code. The rule is the README's: non-blank lines that are not comments. The
 * hand-written figures are constants there (Kubebuilder's Go file is not ours to copy into testdata).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { TESTDATA } from "./golden.js";

const project = join(TESTDATA, "project-memcached");
const controllerPath = join(project, "internal/controller/memcached_controller.ts");

/** Non-blank lines of `text` that hold something besides comments. */
function codeLines(text: string): number {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const lines = new Set<number>();
  const lineOf = (pos: number) => text.slice(0, pos).split("\n").length;
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.NewLineTrivia || token === ts.SyntaxKind.WhitespaceTrivia) continue;
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia)
      continue;
    // A template literal spans lines through its own tokens; each of them is counted at its start.
    lines.add(lineOf(scanner.getTokenStart()));
  }
  return lines.size;
}

/** The code lines of the `desired` function in the controller: the Deployment's own description. */
function desiredLines(text: string): number {
  const file = ts.createSourceFile(controllerPath, text, ts.ScriptTarget.Latest, true);
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && node.name.getText(file) === "desired") found = node;
    else ts.forEachChild(node, visit);
  };
  visit(file);
  if (!found) throw new Error(`no desired: in ${controllerPath}`);
  return codeLines(text.slice(found.getStart(file), found.getEnd()));
}

/** A row of the README's "Lines of code" table: its line and share columns. */
function row(readme: string, label: string): { lines: number; share: string } {
  const line = readme.split("\n").find((l) => l.startsWith("|") && l.includes(label));
  const cells = line?.split("|").map((c) => c.trim());
  if (!cells) throw new Error(`no row "${label}" in the README's table`);
  return { lines: Number(cells[2]), share: cells[3] ?? "" };
}

describe("testdata/project-memcached's line counts", () => {
  const readme = readFileSync(join(project, "README.md"), "utf8");
  const controller = readFileSync(controllerPath, "utf8");
  const anchor = row(readme, "Kubebuilder v4's `memcached_controller.go`").lines;

  it("counts code lines, not comments or blank lines", () => {
    const text = ["// a", "", "/* b", " c */", "const x = 1; // d", "const y = `t", "u`;", ""].join("\n");
    expect(codeLines(text)).toBe(3);
  });

  it("states the controller's own count, and that it is at most 20% of Kubebuilder's hand-written one", () => {
    const mine = codeLines(controller);
    const stated = row(readme, "this project's `memcached_controller.ts`");
    expect(stated.lines).toBe(mine);
    expect(stated.share).toBe(`${Math.round((100 * mine) / anchor)}%`);
    expect(mine).toBeLessThanOrEqual(0.2 * anchor);
  });

  it("states how much of it is the Deployment's description", () => {
    const desired = row(readme, "the Deployment's own description");
    expect(desired.lines).toBe(desiredLines(controller));
    expect(desired.share).toBe(`${Math.round((100 * desired.lines) / anchor)}%`);
  });
});
