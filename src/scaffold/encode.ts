import { KbtsError } from "../errors.js";
import { ts } from "../ts/typescript.js";

/**
 * Free text from flags and project files, checked and encoded for where it lands in generated code.
 * Identifiers (kind, group, domain...) are validated against Kubernetes' grammars in names.ts and
 * need no encoding; the values here are the ones whose grammar is loose: an owner's name, a module
 * path, an npm version spec, the licence header. Templates put JSON through the `json` helper and
 * YAML through the yaml library; comment text goes through `blockCommentText`.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function describeChar(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** A one-line value: no newlines or other control characters, and not longer than `max`. */
function checkOneLine(value: string, flag: string, max: number, example: string): void {
  const bad = CONTROL.exec(value);
  if (bad) {
    throw new KbtsError(
      `${flag} contains a control character (${describeChar(bad[0])} at offset ${bad.index})`,
      {
        where: flag,
        fix: `give one line of plain text, e.g. ${flag} ${example}`,
      },
    );
  }
  if (value.length > max) {
    throw new KbtsError(`${flag} is ${value.length} characters long; at most ${max} are allowed`, {
      where: flag,
      fix: `shorten it, e.g. ${flag} ${example}`,
    });
  }
}

/** `--owner`: the name on the copyright line. Any printable text of one line. */
export function validateOwner(owner: string): void {
  checkOneLine(owner, "--owner", 200, '"The Example Authors"');
  if (owner.trim() === "") {
    throw new KbtsError("--owner is empty", {
      where: "--owner",
      fix: 'leave it out, or name the copyright holder, e.g. --owner "The Example Authors"',
    });
  }
}

/**
 * `--repo`: the project's module path, as Kubebuilder's `--repo` (a Go import path): slash-separated
 * elements of letters, digits and `-._~`, no empty element, none starting with a dot.
 */
const REPO_ELEMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;
export function validateRepo(repo: string): void {
  checkOneLine(repo, "--repo", 253, "example.com/memcached-operator");
  const elements = repo.split("/");
  const bad = elements.find((e) => !REPO_ELEMENT.test(e));
  if (repo === "" || bad !== undefined) {
    throw new KbtsError(
      `--repo ${JSON.stringify(repo)} is not a module path${bad === undefined ? "" : ` (element ${JSON.stringify(bad)})`}`,
      {
        where: "--repo",
        fix: "use slash-separated names of letters, digits, '-', '.', '_' and '~', e.g. --repo example.com/memcached-operator",
      },
    );
  }
}

/**
 * An npm version, range or dist-tag (`1.2.3`, `^0.1.0`, `>=1.0.0 <2`, `1.x || 2.x`, `latest`), as
 * `--runtime` takes for a registry install. Only the characters of that grammar are allowed, so the
 * value cannot carry quotes, URLs or shell syntax into package.json.
 */
const VERSION_PART =
  /^(?:[~^]|[<>]=?|=)?v?(?:0|[1-9]\d*|[xX*])(?:\.(?:0|[1-9]\d*|[xX*])){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const DIST_TAG = /^[a-z][a-z0-9._-]{0,63}$/i;
export function isNpmVersionSpec(spec: string): boolean {
  if (DIST_TAG.test(spec) && !/^v?\d/.test(spec)) return true;
  return spec.split("||").every((alt) => {
    const parts = alt
      .trim()
      .replace(/\s+-\s+/g, " ")
      .split(/\s+/);
    return parts.length > 0 && parts.every((p) => VERSION_PART.test(p));
  });
}

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
