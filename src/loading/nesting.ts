import { KbtsError } from "../errors.js";
import { ts } from "../ts/typescript.js";
import { MAX_TYPE_DEPTH } from "./bounds.js";

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
