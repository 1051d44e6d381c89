import { isAbsolute, relative } from "node:path";
import { ts } from "ts-morph";
import { KbtsError } from "../errors.js";

/**
 * Bounds on the work one `kbts manifests` / `kbts generate` run does, checked before the work starts:
 * what `--paths` may scan (the project, never the file system), and how deeply types may nest (the
 * TypeScript parser and the schema walker recurse, so a deeper file would end in a stack overflow
 * with no location).
 */

/** Levels of brackets in a file, and of object types in a schema, a run accepts. */
export const MAX_TYPE_DEPTH = 100;

const GLOB_CHARS = /[*?[\]{}!]/;

/**
 * Each `--paths` entry must be a non-empty path (directory, file or glob) inside the project: an
 * empty path, `/` or a path leaving the project would scan the whole file system. Absolute paths
 * inside the project are made relative to it.
 */
export function checkScanPaths(root: string, paths: string[], flag = "--paths"): string[] {
  return paths.map((raw) => {
    const path = raw.trim();
    const shown = JSON.stringify(raw);
    if (path === "") {
      throw new KbtsError(`${shown} is empty; it would scan the whole file system`, {
        where: flag,
        fix: `name directories inside the project, e.g. ${flag} api internal`,
      });
    }
    let rel = path;
    if (isAbsolute(path)) {
      rel = relative(root, path);
      if (path === "/" || rel === ".." || rel.startsWith("../") || isAbsolute(rel)) {
        throw new KbtsError(`${shown} is outside the project (${root})`, {
          where: flag,
          fix: `name directories inside the project, e.g. ${flag} api internal`,
        });
      }
      rel = rel === "" ? "." : rel;
    }
    if (
      rel
        .split("/")
        .some((segment) => segment === ".." || (GLOB_CHARS.test(segment) && segment.includes("..")))
    ) {
      throw new KbtsError(`${shown} leaves the project`, {
        where: flag,
        fix: `name directories inside the project (no '..'), e.g. ${flag} api internal`,
      });
    }
    return rel;
  });
}

/**
 * Nesting of `{`, `(` and `[` in a file, counted with TypeScript's scanner (strings, comments and
 * templates skipped); deeper than MAX_TYPE_DEPTH is an error at the first bracket past the limit.
 */
export function checkNesting(text: string, file: string): void {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  // What each open bracket is: a template substitution's `}` resumes the template's text.
  const open: Array<"bracket" | "template"> = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    switch (token) {
      case ts.SyntaxKind.OpenBraceToken:
      case ts.SyntaxKind.OpenParenToken:
      case ts.SyntaxKind.OpenBracketToken:
      case ts.SyntaxKind.TemplateHead:
        open.push(token === ts.SyntaxKind.TemplateHead ? "template" : "bracket");
        if (open.length > MAX_TYPE_DEPTH) {
          const before = text.slice(0, scanner.getTokenStart());
          const line = before.split("\n").length;
          const col = before.length - before.lastIndexOf("\n");
          throw new KbtsError(`types and expressions nest deeper than ${MAX_TYPE_DEPTH} levels`, {
            where: `${file}:${line}:${col}`,
            fix: `flatten the nesting into named types (at most ${MAX_TYPE_DEPTH} levels deep)`,
          });
        }
        break;
      case ts.SyntaxKind.CloseBraceToken:
        if (
          open.at(-1) === "template" &&
          scanner.reScanTemplateToken(false) === ts.SyntaxKind.TemplateMiddle
        ) {
          break;
        }
        open.pop();
        break;
      case ts.SyntaxKind.CloseParenToken:
      case ts.SyntaxKind.CloseBracketToken:
        open.pop();
        break;
    }
  }
}
