import { KbtsError } from "../errors.js";
import { ts } from "../ts/typescript.js";

/**
 * Free text encoded for where it lands in generated code: the licence header and comment text.
 * Names and flags are validated in project/names.ts. Templates put JSON through the `json` helper and
 * YAML through the yaml library; comment text goes through `blockCommentText`.
 */

/** Text for the inside of a block comment: whatever it says, it cannot end the comment early. */
export function blockCommentText(text: string): string {
  return text.replaceAll("*/", "*\\/");
}

/**
 * The licence header put on top of every generated TypeScript file: it must be comments only,
 * or code in it would run in every file it heads.
 */
export function checkHeaderIsComment(header: string, file: string): void {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, header);
  for (;;) {
    const token = scanner.scan();
    if (token === ts.SyntaxKind.EndOfFileToken) return;
    if (
      token === ts.SyntaxKind.WhitespaceTrivia ||
      token === ts.SyntaxKind.NewLineTrivia ||
      token === ts.SyntaxKind.SingleLineCommentTrivia ||
      token === ts.SyntaxKind.MultiLineCommentTrivia
    ) {
      if (scanner.isUnterminated()) break;
      continue;
    }
    break;
  }
  const line = header.slice(0, scanner.getTokenStart()).split("\n").length;
  throw new KbtsError(
    "the licence header is not only comments: code in it would run in every generated file",
    {
      where: `${file}:${line}`,
      fix: "keep hack/boilerplate.ts.txt to /* ... */ or // comments (a '*/' inside the text ends the comment)",
    },
  );
}
