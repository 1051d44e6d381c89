/**
 * Tests that cannot fail (`kbts lint --tests`): a syntactic check of every *.test.ts under a root for
 * what type-checking and biome let through and a green run never shows.
 *
 * - no-assertion: a test (`it`/`test`) that asserts nothing.
 * - conditional-assertion: an assertion where it may never run: a `catch` clause (unless its try ends in
 *   a failure: throw, expect.unreachable()), a rejection handler, an event listener, a timer callback; in
 *   a test without `expect.assertions(n)` or `expect.hasAssertions()` to notice. If the catch never runs,
 *   the test passes, whatever else it asserts.
 * - unread-result: a call given `reject: false` (execa: a failed command resolves instead of throwing),
 *   or a helper that returns one (the file's own or a relative import), whose result nothing reads: the
 *   failure is lost.
 * - swallowed-error: `.catch(() => {})` (or `=> undefined`, `=> null`) or an empty `catch {}` whose
 *   result nothing reads, outside teardown (afterEach, afterAll, onTestFinished, a `finally` block).
 *
 * What asserts: a call to `expect(...)`/`assert(...)` or to any function or method named expect… or
 * assert… (expectStatus, assert.equal, prom.expectFiring); a `throw` statement (a test fails by an
 * error); and a call to a function that does one of these, followed through the file's own functions and
 * those it imports from relative paths. A callback passed to any other call (eventually, map, a helper)
 * is taken as called; a test can still hide an assertion in an empty loop, which this cannot see.
 *
 * it.skip and it.todo are not tests that can pass (vitest counts them skipped), so they need no assertion.
 * An empty catch or handler with a comment inside says there why the error is dropped; `p.catch(() => {})`
 * on a variable read elsewhere only marks the rejection handled.
 *
 * An exception is written where it is made, with its reason, on the finding's line or in the comment
 * lines right above it: `// lint-tests: allow <rule> — why`. An allow comment that silences nothing is
 * itself a finding, so exceptions do not outlive their reason.
 *
 * In this repository `make lint` runs it over every *.test.ts, the golden projects' included: their
 * tests are what `kbts init` gives users, and none is a placeholder without an assertion.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { KbtsError } from "../errors.js";
import { ts } from "../ts/typescript.js";

export const TEST_LINT_RULES = [
  "no-assertion",
  "conditional-assertion",
  "unread-result",
  "swallowed-error",
] as const;
export type TestLintRule = (typeof TEST_LINT_RULES)[number];

export interface TestLintFinding {
  /** file:line:col, relative to the root. */
  where: string;
  /** A rule, or "allow-comment" for an allow comment that is malformed or silences nothing. */
  rule: TestLintRule | "allow-comment";
  message: string;
}

const FIX: Record<TestLintFinding["rule"], string> = {
  "no-assertion":
    "assert what the test claims (expect), or say why not: // lint-tests: allow no-assertion — why",
  "conditional-assertion":
    "assert outside the catch/handler (e.g. expect(() => f()).toThrow(...), await expect(p).rejects...), or add expect.assertions(n)",
  "unread-result": "check the result (exitCode, output), or drop reject: false so a failure throws",
  "swallowed-error":
    "let the error fail the test, or move the call to teardown (afterEach, afterAll, finally)",
  "allow-comment": "write // lint-tests: allow <rule> — why, on the finding's line or right above it",
};

/** Directories never searched for tests: dependencies, build output, VCS and tool caches. */
const SKIP_DIRS = new Set(["node_modules", "dist", "coverage"]);

/** Every *.test.ts under root (skipping node_modules, dist, coverage and dot-directories), sorted. */
export function testFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || SKIP_DIRS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".test.ts")) out.push(path);
    }
  };
  walk(root);
  return out.sort();
}

interface RawFinding {
  node: ts.Node;
  rule: TestLintRule;
  message: string;
}

type FunctionNode = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration;

/** One parsed file: its named functions (by name) and what its relative imports bind. */
interface ParsedFile {
  path: string;
  sf: ts.SourceFile;
  functions: Map<string, FunctionNode[]>;
  imports: Map<string, { path: string; name: string }>;
}

const isFunctionNode = (n: ts.Node): n is FunctionNode =>
  ts.isFunctionDeclaration(n) ||
  ts.isArrowFunction(n) ||
  ts.isFunctionExpression(n) ||
  ts.isMethodDeclaration(n);

/** expect, assert, expectStatus, assertValid, expect_x: not expected, assertions. */
const ASSERTING_NAME = /^(expect|assert)([A-Z_]|$)/;
/** expect's members that assert when called (expect.soft(x).toBe, expect.poll, expect.unreachable). */
const EXPECT_ASSERTING_MEMBERS = new Set(["soft", "poll", "unreachable"]);
/** A callback passed to one of these methods runs only when an event comes. */
const LISTENER_METHODS = new Set([
  "on",
  "once",
  "addListener",
  "prependListener",
  "prependOnceListener",
  "addEventListener",
]);
/** A callback passed to one of these runs later, possibly after the test ended. */
const TIMERS = new Set(["setTimeout", "setInterval", "setImmediate", "queueMicrotask", "nextTick"]);
/** A callback passed to one of these is teardown. */
const TEARDOWN_HOOKS = new Set(["afterEach", "afterAll", "onTestFinished", "onTestFailed"]);

const unwrap = (e: ts.Expression): ts.Expression => {
  let x = e;
  while (
    ts.isParenthesizedExpression(x) ||
    ts.isAsExpression(x) ||
    ts.isNonNullExpression(x) ||
    ts.isSatisfiesExpression(x)
  ) {
    x = x.expression;
  }
  return x;
};

/** The leftmost identifier of a call's callee chain: `it` for it.each(t)("x", fn), `expect` for expect(a).toBe(b). */
function calleeRoot(call: ts.CallExpression): string | undefined {
  let e: ts.Expression = call.expression;
  for (;;) {
    e = unwrap(e);
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = e.expression;
    else if (ts.isCallExpression(e)) e = e.expression;
    else break;
  }
  return ts.isIdentifier(e) ? e.text : undefined;
}

/** Whether a call's callee chain has a member the predicate accepts: `skip` in it.skip.each(t)(...). */
function chainHas(call: ts.CallExpression, test: (name: string) => boolean): boolean {
  let e: ts.Expression = call.expression;
  for (;;) {
    e = unwrap(e);
    if (ts.isPropertyAccessExpression(e)) {
      if (test(e.name.text)) return true;
      e = e.expression;
    } else if (ts.isCallExpression(e)) e = e.expression;
    else return false;
  }
}

/** The method name of `x.name(...)`, or undefined for a plain call. */
const methodName = (call: ts.CallExpression): string | undefined => {
  const callee = unwrap(call.expression);
  return ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
};

const isEmptyHandler = (n: ts.Node | undefined): boolean => {
  if (!n || !(ts.isArrowFunction(n) || ts.isFunctionExpression(n))) return false;
  const body = n.body;
  if (ts.isBlock(body)) return body.statements.length === 0;
  const e = unwrap(body);
  return (
    (ts.isIdentifier(e) && e.text === "undefined") ||
    e.kind === ts.SyntaxKind.NullKeyword ||
    (ts.isVoidExpression(e) && ts.isLiteralExpression(unwrap(e.expression)))
  );
};

/** An empty handler or catch block with a comment inside: the reason the error is dropped, written where it is. */
function explained(n: ts.Node | undefined, sf: ts.SourceFile): boolean {
  if (!n) return false;
  const body = ts.isArrowFunction(n) || ts.isFunctionExpression(n) ? n.body : n;
  if (!ts.isBlock(body)) return false;
  return /\/\/|\/\*/.test(sf.text.slice(body.getStart(sf) + 1, body.getEnd() - 1));
}

/**
 * `p.catch(() => {})` where p is a variable read elsewhere (awaited at stop, kept in a list): the
 * handler only marks the rejection handled, the error is still seen through p.
 */
function observedElsewhere(call: ts.CallExpression): boolean {
  if (fate(call) !== "dropped") return true;
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const target = unwrap(callee.expression);
  if (!ts.isIdentifier(target)) return false;
  let seen = false;
  const visit = (n: ts.Node): void => {
    if (seen) return;
    if (ts.isIdentifier(n) && n !== target && n.text === target.text && !isDeclarationName(n)) seen = true;
    else ts.forEachChild(n, visit);
  };
  visit(call.getSourceFile());
  return seen;
}

const isDeclarationName = (n: ts.Identifier): boolean =>
  (ts.isVariableDeclaration(n.parent) || ts.isParameter(n.parent)) && n.parent.name === n;

/** `{ ..., reject: false, ... }` */
const hasRejectFalse = (arg: ts.Expression): boolean =>
  ts.isObjectLiteralExpression(arg) &&
  arg.properties.some(
    (p) =>
      ts.isPropertyAssignment(p) &&
      (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) &&
      p.name.text === "reject" &&
      p.initializer.kind === ts.SyntaxKind.FalseKeyword,
  );

/** What becomes of an expression's value: dropped, returned from its function, or read. */
function fate(expr: ts.Expression): "dropped" | "returned" | "read" {
  let node: ts.Node = expr;
  let parent = node.parent;
  while (
    ts.isParenthesizedExpression(parent) ||
    ts.isAwaitExpression(parent) ||
    ts.isAsExpression(parent) ||
    ts.isNonNullExpression(parent) ||
    ts.isSatisfiesExpression(parent)
  ) {
    node = parent;
    parent = parent.parent;
  }
  if (ts.isExpressionStatement(parent) || ts.isVoidExpression(parent)) return "dropped";
  if (ts.isReturnStatement(parent) || (ts.isArrowFunction(parent) && parent.body === node)) return "returned";
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) {
    const name = parent.name;
    const scope = enclosingScope(parent);
    let used = false;
    const visit = (n: ts.Node): void => {
      if (used) return;
      if (ts.isIdentifier(n) && n !== name && n.text === name.text) used = true;
      else ts.forEachChild(n, visit);
    };
    visit(scope);
    return used ? "read" : "dropped";
  }
  return "read";
}

function enclosingScope(n: ts.Node): ts.Node {
  let p = n.parent;
  while (p && !isFunctionNode(p) && !ts.isSourceFile(p)) p = p.parent;
  return p ?? n.getSourceFile();
}

/** The function a named function-valued declaration holds: `function f`, `const f = () =>`, a method. */
function namedFunctions(sf: ts.SourceFile): Map<string, FunctionNode[]> {
  const out = new Map<string, FunctionNode[]>();
  const add = (name: string, fn: FunctionNode) => out.set(name, [...(out.get(name) ?? []), fn]);
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionDeclaration(n) && n.name && n.body) add(n.name.text, n);
    else if (ts.isMethodDeclaration(n) && n.body && ts.isIdentifier(n.name)) add(n.name.text, n);
    else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) {
      const init = unwrap(n.initializer);
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) add(n.name.text, init);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** Checks test files; other files are parsed only when a test file imports them (relative paths). */
export class TestLinter {
  private readonly parsed = new Map<string, ParsedFile | undefined>();
  private readonly asserts = new Map<FunctionNode, boolean>();
  private readonly unchecked = new Map<FunctionNode, boolean>();

  constructor(private readonly root: string) {}

  private parse(path: string): ParsedFile | undefined {
    if (this.parsed.has(path)) return this.parsed.get(path);
    this.parsed.set(path, undefined); // a cycle resolves to "nothing known"
    if (!existsSync(path)) return undefined;
    const sf = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const imports = new Map<string, { path: string; name: string }>();
    for (const st of sf.statements) {
      if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
      const spec = st.moduleSpecifier.text;
      if (!spec.startsWith(".")) continue;
      const base = resolve(dirname(path), spec);
      const target = [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts"), base].find(
        (p) => p.endsWith(".ts") && existsSync(p),
      );
      const named = st.importClause?.namedBindings;
      if (!target || !named || !ts.isNamedImports(named)) continue;
      for (const el of named.elements) {
        imports.set(el.name.text, { path: target, name: (el.propertyName ?? el.name).text });
      }
    }
    const file: ParsedFile = { path, sf, functions: namedFunctions(sf), imports };
    this.parsed.set(path, file);
    return file;
  }

  /** The functions a plain call `name(...)` may run, in this file or the relative module it comes from. */
  private resolveCall(call: ts.CallExpression, file: ParsedFile): { fn: FunctionNode; file: ParsedFile }[] {
    const callee = unwrap(call.expression);
    if (!ts.isIdentifier(callee)) return [];
    const local = file.functions.get(callee.text);
    if (local) return local.map((fn) => ({ fn, file }));
    const imported = file.imports.get(callee.text);
    const from = imported && this.parse(imported.path);
    if (!imported || !from) return [];
    return (from.functions.get(imported.name) ?? []).map((fn) => ({ fn, file: from }));
  }

  /** Whether a call is an assertion by itself or runs a function that asserts. */
  private isAssertingCall(call: ts.CallExpression, file: ParsedFile): boolean {
    const callee = unwrap(call.expression);
    if (ts.isIdentifier(callee) && ASSERTING_NAME.test(callee.text)) return true;
    if (ts.isPropertyAccessExpression(callee)) {
      const target = unwrap(callee.expression);
      if (ASSERTING_NAME.test(callee.name.text)) return true;
      if (ts.isIdentifier(target) && target.text === "assert") return true;
      if (
        ts.isIdentifier(target) &&
        target.text === "expect" &&
        EXPECT_ASSERTING_MEMBERS.has(callee.name.text)
      )
        return true;
    }
    return this.resolveCall(call, file).some(({ fn, file: f }) => this.functionAsserts(fn, f));
  }

  private functionAsserts(fn: FunctionNode, file: ParsedFile): boolean {
    const known = this.asserts.get(fn);
    if (known !== undefined) return known;
    this.asserts.set(fn, false); // recursion: assume not while deciding
    let found = false;
    const visit = (n: ts.Node): void => {
      if (found) return;
      if (ts.isThrowStatement(n) || (ts.isCallExpression(n) && this.isAssertingCall(n, file))) found = true;
      else ts.forEachChild(n, visit);
    };
    if (fn.body) visit(fn.body);
    this.asserts.set(fn, found);
    return found;
  }

  /** Whether a function returns a call whose failure does not throw (reject: false, or such a helper). */
  private returnsUnchecked(fn: FunctionNode, file: ParsedFile): boolean {
    const known = this.unchecked.get(fn);
    if (known !== undefined) return known;
    this.unchecked.set(fn, false);
    let found = false;
    const visit = (n: ts.Node): void => {
      if (found || (n !== fn && isFunctionNode(n))) return;
      if (ts.isCallExpression(n) && this.isUncheckedCall(n, file) && fate(n) === "returned") found = true;
      else ts.forEachChild(n, visit);
    };
    ts.forEachChild(fn, visit);
    this.unchecked.set(fn, found);
    return found;
  }

  /** A call given reject: false, or a call to a helper that returns one. */
  private isUncheckedCall(call: ts.CallExpression, file: ParsedFile): string | undefined {
    if (call.arguments.some(hasRejectFalse)) return "reject: false";
    const helper = this.resolveCall(call, file).find(({ fn, file: f }) => this.returnsUnchecked(fn, f));
    return helper ? `${call.expression.getText(file.sf)} (it returns a reject: false result)` : undefined;
  }

  /** The findings in one test file, allow comments applied. */
  lintFile(path: string): TestLintFinding[] {
    const file = this.parse(path);
    if (!file) return [];
    const raw: RawFinding[] = [];
    /** teardown: under afterEach/afterAll/finally; conditional: where code may never run, and why. */
    const visit = (n: ts.Node, teardown: boolean, conditional: string | undefined): void => {
      if (ts.isCallExpression(n)) {
        const root = calleeRoot(n);
        if ((root === "it" || root === "test") && isOutermostCall(n)) this.checkTest(n, file, raw);
        if (conditional && this.isAssertingCall(n, file) && !underCountedTest(n)) {
          raw.push({
            node: n,
            rule: "conditional-assertion",
            message: `${n.getText(file.sf).split("\n")[0]} is ${conditional}: the test passes when that never runs`,
          });
        }
        const unchecked = teardown ? undefined : this.isUncheckedCall(n, file);
        if (unchecked && fate(n) === "dropped") {
          raw.push({ node: n, rule: "unread-result", message: `the result of ${unchecked} is never read` });
        }
        const method = methodName(n);
        const handler = method === "catch" ? n.arguments[0] : method === "then" ? n.arguments[1] : undefined;
        if (!teardown && isEmptyHandler(handler) && !explained(handler, file.sf) && !observedElsewhere(n)) {
          raw.push({ node: n, rule: "swallowed-error", message: `.${method}(() => {}) drops the error` });
        }
        const callee = unwrap(n.expression);
        const name = ts.isIdentifier(callee) ? callee.text : method;
        const isTeardown = ts.isIdentifier(callee) && TEARDOWN_HOOKS.has(callee.text);
        n.arguments.forEach((a, i) => {
          const why = !isFunctionNode(unwrap(a))
            ? undefined
            : method === "catch" || (method === "then" && i >= 1)
              ? `in a rejection handler (.${method})`
              : method !== undefined && LISTENER_METHODS.has(method)
                ? `in an event listener (.${method})`
                : name !== undefined && TIMERS.has(name)
                  ? `in a timer callback (${name})`
                  : undefined;
          visit(a, teardown || isTeardown, conditional ?? why);
        });
        visit(n.expression, teardown, conditional);
        return;
      }
      if (ts.isTryStatement(n)) {
        visit(n.tryBlock, teardown, conditional);
        if (n.catchClause) {
          if (
            !teardown &&
            n.catchClause.block.statements.length === 0 &&
            !explained(n.catchClause.block, file.sf)
          ) {
            raw.push({
              node: n.catchClause,
              rule: "swallowed-error",
              message: "an empty catch drops the error",
            });
          }
          // A try that ends in a failure (throw, expect.unreachable()) makes its catch the only way on.
          visit(
            n.catchClause,
            teardown,
            conditional ?? (endsInFailure(n.tryBlock) ? undefined : "in a catch clause"),
          );
        }
        if (n.finallyBlock) visit(n.finallyBlock, true, conditional);
        return;
      }
      ts.forEachChild(n, (c) => visit(c, teardown, conditional));
    };
    visit(file.sf, false, undefined);
    return this.applyAllowComments(file, raw);
  }

  /** no-assertion: a test whose body (followed into the functions it calls) asserts nothing. */
  private checkTest(call: ts.CallExpression, file: ParsedFile, out: RawFinding[]): void {
    // it.skip and it.todo never run: vitest reports them skipped, never passed.
    if (chainHas(call, (name) => name === "skip" || name === "todo")) return;
    const body = testBody(call, file);
    if (!body?.body) return; // a body this check cannot see
    let asserts = false;
    const visit = (n: ts.Node): void => {
      if (asserts) return;
      if (ts.isThrowStatement(n) || (ts.isCallExpression(n) && this.isAssertingCall(n, file))) asserts = true;
      else ts.forEachChild(n, visit);
    };
    visit(body.body);
    if (!asserts)
      out.push({ node: call, rule: "no-assertion", message: `${testTitle(call)} asserts nothing` });
  }

  private applyAllowComments(file: ParsedFile, raw: RawFinding[]): TestLintFinding[] {
    const { sf } = file;
    const lines = sf.text.split("\n");
    const where = (line: number, col: number) => `${relative(this.root, file.path)}:${line + 1}:${col + 1}`;
    const allows = new Map<number, { rule: string; used: boolean; col: number }[]>();
    const out: TestLintFinding[] = [];
    const comments = lineComments(sf);
    comments.forEach(({ text, col }, i) => {
      for (const m of text.matchAll(/^\/\/\s*lint-tests:\s*allow\b\s*([\w-]*)(.*)$/g)) {
        const rule = m[1] ?? "";
        if (!(TEST_LINT_RULES as readonly string[]).includes(rule)) {
          out.push({
            where: where(i, col),
            rule: "allow-comment",
            message: `unknown rule "${rule}" (one of ${TEST_LINT_RULES.join(", ")})`,
          });
          continue;
        }
        if (!/^\s*(—|--|-|:)\s*\S/.test(m[2] ?? "")) {
          out.push({
            where: where(i, col),
            rule: "allow-comment",
            message: `allow ${rule} without a reason`,
          });
        }
        allows.set(i, [...(allows.get(i) ?? []), { rule, used: false, col }]);
      }
    });
    for (const f of raw) {
      const { line, character } = sf.getLineAndCharacterOfPosition(f.node.getStart(sf));
      // The finding's line, then the comment lines right above it.
      const candidates = [line];
      for (let l = line - 1; l >= 0 && /^\s*\/\//.test(lines[l] ?? "") && comments.has(l); l--)
        candidates.push(l);
      const allow = candidates.flatMap((l) => allows.get(l) ?? []).find((a) => a.rule === f.rule);
      if (allow) allow.used = true;
      else out.push({ where: where(line, character), rule: f.rule, message: f.message });
    }
    for (const [line, list] of allows) {
      for (const a of list) {
        if (!a.used)
          out.push({
            where: where(line, a.col),
            rule: "allow-comment",
            message: `allow ${a.rule} silences nothing: remove it`,
          });
      }
    }
    return out;
  }
}

/** Every `//` comment of a file (not text inside strings or templates), by line: its text and column. */
function lineComments(sf: ts.SourceFile): Map<number, { text: string; col: number }> {
  const out = new Map<number, { text: string; col: number }>();
  const take = (ranges: readonly { pos: number; end: number; kind: ts.SyntaxKind }[] | undefined) => {
    for (const r of ranges ?? []) {
      if (r.kind !== ts.SyntaxKind.SingleLineCommentTrivia) continue;
      const { line, character } = sf.getLineAndCharacterOfPosition(r.pos);
      out.set(line, { text: sf.text.slice(r.pos, r.end), col: character });
    }
  };
  const visit = (n: ts.Node): void => {
    take(ts.getLeadingCommentRanges(sf.text, n.getFullStart()));
    take(ts.getTrailingCommentRanges(sf.text, n.getEnd()));
    ts.forEachChild(n, visit);
  };
  visit(sf);
  take(ts.getLeadingCommentRanges(sf.text, sf.endOfFileToken.getFullStart()));
  return out;
}

/** The outermost call of a chain: `it.each(t)("x", fn)` itself, not its `it.each(t)`. */
function isOutermostCall(call: ts.CallExpression): boolean {
  const parent = call.parent;
  return !(ts.isCallExpression(parent) && parent.expression === call);
}

/** The test function of `it(title, fn)` / `it.each(t)(title, fn)` (after the title), when visible. */
function testBody(call: ts.CallExpression, file: ParsedFile): FunctionNode | undefined {
  // The title comes first (a callback there is `items.map((it) => it.x(...))`, not a test).
  for (const a of call.arguments.slice(1)) {
    const arg = unwrap(a);
    if (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) return arg;
    if (ts.isIdentifier(arg)) return file.functions.get(arg.text)?.[0];
  }
  return undefined;
}

const testTitle = (call: ts.CallExpression): string => {
  const t = call.arguments[0];
  return t && ts.isStringLiteralLike(t) ? `"${t.text}"` : "the test";
};

/** Whether the test around a node counts its assertions (expect.assertions(n), expect.hasAssertions()). */
function underCountedTest(n: ts.Node): boolean {
  for (let p: ts.Node | undefined = n.parent; p; p = p.parent) {
    if (!isFunctionNode(p) || !ts.isCallExpression(p.parent)) continue;
    const call = p.parent;
    const root = calleeRoot(call);
    if ((root !== "it" && root !== "test") || !call.arguments.slice(1).includes(p as ts.Expression)) continue;
    let counted = false;
    const visit = (c: ts.Node): void => {
      if (counted) return;
      if (ts.isCallExpression(c)) {
        const callee = unwrap(c.expression);
        if (
          ts.isPropertyAccessExpression(callee) &&
          ts.isIdentifier(callee.expression) &&
          callee.expression.text === "expect" &&
          (callee.name.text === "assertions" || callee.name.text === "hasAssertions")
        ) {
          counted = true;
          return;
        }
      }
      ts.forEachChild(c, visit);
    };
    visit(p);
    return counted;
  }
  return false;
}

/** A block whose last statement fails the test: throw, expect.unreachable(), expect.fail(), assert.fail(). */
function endsInFailure(block: ts.Block): boolean {
  const last = block.statements.at(-1);
  if (!last) return false;
  if (ts.isThrowStatement(last)) return true;
  if (!ts.isExpressionStatement(last)) return false;
  const e = unwrap(ts.isAwaitExpression(last.expression) ? last.expression.expression : last.expression);
  if (!ts.isCallExpression(e)) return false;
  const callee = unwrap(e.expression);
  return (
    ts.isPropertyAccessExpression(callee) &&
    ts.isIdentifier(callee.expression) &&
    (callee.expression.text === "expect" || callee.expression.text === "assert") &&
    (callee.name.text === "unreachable" || callee.name.text === "fail")
  );
}

/** Every finding in root's test files, in file order. */
export function lintTests(root: string, files = testFiles(root)): TestLintFinding[] {
  const linter = new TestLinter(root);
  return files.flatMap((f) => linter.lintFile(resolve(root, f)));
}

/** `kbts lint --tests`: fails, listing each finding, when a test cannot fail on what it claims. */
export function runTestLint(root = process.cwd()): void {
  const files = testFiles(root);
  const found = lintTests(root, files);
  if (found.length === 0) {
    process.stdout.write(`no test that cannot fail (${files.length} test files)\n`);
    return;
  }
  for (const f of found) process.stderr.write(`${f.where}: ${f.rule}: ${f.message}\n  fix: ${FIX[f.rule]}\n`);
  throw new KbtsError(
    `${found.length} finding(s) in tests: each is a test that may pass without checking what it claims`,
    {
      fix: "fix each one listed above, or write its exception where it is made: // lint-tests: allow <rule> — why",
    },
  );
}
