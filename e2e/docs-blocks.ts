/**
 * The code blocks of the kbts book's pages (docs/**\/*.md, the generated ones left out: they quote
 * nothing a reader runs), for e2e/docs-blocks.test.ts. Conventions, beside those of
 * e2e/support/readme-blocks.ts for shell steps:
 * - a block fenced ```sh no-run (or ```ts no-check) is shown but not run (checked), and the page says
 *   why next to it: it needs Docker, a real cluster, a published package or a hand edit;
 * - a TypeScript block that is an excerpt names what it uses from around it in an HTML comment right
 *   above it, `<!-- ts-context: declare const mgr: Manager; -->`; every export of @kbts/runtime and its
 *   envtest and fake entry points is in scope without an import.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { Command } from "commander";
import ts from "typescript";
import { GENERATED } from "../docs/gen/main.js";
import { REPO } from "./support/paths.js";

export interface CodeBlock {
  /** docs/... path of the page. */
  file: string;
  /** 1-based line of the block's first line of code. */
  line: number;
  lang: string;
  /** Words after the language on the fence (`no-run`, `no-check`). */
  flags: string[];
  text: string;
  /** The ts-context comment above the block, if any. */
  context?: string;
}

const DOCS = join(REPO, "docs");

/** The hand-written pages of the book (generated pages and included parts left out). */
export function bookPages(): string[] {
  const generated = Object.values(GENERATED).map((p) => join(DOCS, p));
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.name.startsWith(".") || e.name === "node_modules" || generated.some((g) => p === g)) continue;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".md")) out.push(p);
    }
  };
  walk(DOCS);
  return out.sort();
}

/** The fenced blocks of one page. */
export function codeBlocks(markdown: string, file: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\S*)\s*(.*)$/.exec(lines[i] ?? "");
    if (!fence) continue;
    let j = i + 1;
    while (j < lines.length && !/^```\s*$/.test(lines[j] ?? "")) j++;
    let k = i - 1;
    while (k >= 0 && (lines[k] ?? "").trim() === "") k--;
    let context: string | undefined;
    if ((lines[k] ?? "").trimEnd().endsWith("-->")) {
      let s = k;
      while (s > 0 && !(lines[s] ?? "").includes("<!--")) s--;
      const comment = /<!--\s*ts-context:([\s\S]*?)-->/.exec(lines.slice(s, k + 1).join("\n"));
      context = comment?.[1]?.trim();
    }
    blocks.push({
      file: relative(REPO, file),
      line: i + 2,
      lang: fence[1] ?? "",
      flags: (fence[2] ?? "").split(/\s+/).filter(Boolean),
      text: lines.slice(i + 1, j).join("\n"),
      ...(context ? { context } : {}),
    });
    i = j;
  }
  return blocks;
}

export function allBlocks(): CodeBlock[] {
  return bookPages().flatMap((f) => codeBlocks(readFileSync(f, "utf8"), f));
}

/** The files the book's pages include (`<!--@include: ...-->`): the tutorials' READMEs; generated parts left out. */
export function includedFiles(): string[] {
  const generated = Object.values(GENERATED).map((p) => join(DOCS, p));
  const out = new Set<string>();
  for (const page of bookPages())
    for (const m of readFileSync(page, "utf8").matchAll(/<!--@include:\s*([^{}\s]+)(\{[^}]*\})?\s*-->/g))
      out.add(join(dirname(page), m[1]!));
  return [...out].filter((f) => !generated.includes(f)).sort();
}

const ENTRY_POINTS = ["@kbts/runtime", "@kbts/runtime/envtest", "@kbts/runtime/fake"];

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"],
};

/** A program over in-memory files placed under docs/ (so imports resolve through the repo's node_modules). */
function program(files: Map<string, string>): ts.Program {
  const host = ts.createCompilerHost(OPTIONS);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) => {
    const text = files.get(name);
    return text !== undefined ? ts.createSourceFile(name, text, lang) : getSourceFile(name, lang, ...rest);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  return ts.createProgram([...files.keys()], OPTIONS, host);
}

let exportsCache: Map<string, string> | undefined;

/** The names each entry point exports (values and types), first entry point first; read once per process. */
function runtimeExports(): Map<string, string> {
  if (exportsCache) return exportsCache;
  const file = join(DOCS, "__exports.ts");
  const p = program(
    new Map([[file, ENTRY_POINTS.map((m, i) => `import * as m${i} from "${m}";`).join("\n")]]),
  );
  const checker = p.getTypeChecker();
  const names = new Map<string, string>();
  const source = p.getSourceFile(file)!;
  source.statements.forEach((st, i) => {
    if (!ts.isImportDeclaration(st)) return;
    const symbol = checker.getSymbolAtLocation(st.moduleSpecifier);
    if (!symbol) throw new Error(`${ENTRY_POINTS[i]} does not resolve: run \`make build\` first`);
    for (const e of checker.getExportsOfModule(symbol))
      if (!names.has(e.name)) names.set(e.name, ENTRY_POINTS[i]!);
  });
  exportsCache = names;
  return names;
}

/** Names a block declares or imports itself at the top level (those the prelude must not import). */
function ownNames(text: string): Set<string> {
  const sf = ts.createSourceFile("x.ts", text, ts.ScriptTarget.ES2022);
  const names = new Set<string>();
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st)) {
      const c = st.importClause;
      if (c?.name) names.add(c.name.text);
      const b = c?.namedBindings;
      if (b && ts.isNamedImports(b)) for (const e of b.elements) names.add(e.name.text);
      if (b && ts.isNamespaceImport(b)) names.add(b.name.text);
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
    } else if (
      (ts.isFunctionDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isEnumDeclaration(st)) &&
      st.name
    ) {
      names.add(st.name.text);
    }
  }
  return names;
}

/** Type-checks the TypeScript blocks against the built @kbts/runtime; returns each error at its page line. */
export function typecheckBlocks(blocks: CodeBlock[]): string[] {
  const exports = runtimeExports();
  const files = new Map<string, string>();
  const origin = new Map<string, { block: CodeBlock; offset: number }>();
  blocks.forEach((block, n) => {
    const context = block.context ?? "";
    const own = ownNames(`${context}\n${block.text}`);
    const byModule = new Map<string, string[]>();
    for (const [name, mod] of exports)
      if (!own.has(name)) byModule.set(mod, [...(byModule.get(mod) ?? []), name]);
    const prelude = [...byModule].map(([mod, names]) => `import { ${names.join(", ")} } from "${mod}";`);
    // The block's own imports must come first in a module: hoist them above the prelude's context.
    const head = [...prelude, context, "export {};"].join("\n");
    const file = join(DOCS, dirname(block.file).replace(/^docs\/?/, ""), `__block${n}.ts`);
    files.set(file, `${head}\n${block.text}\n`);
    origin.set(file, { block, offset: head.split("\n").length });
  });
  const p = program(files);
  const errors: string[] = [];
  for (const d of ts.getPreEmitDiagnostics(p)) {
    const o = d.file ? origin.get(d.file.fileName) : undefined;
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!o || d.start === undefined) {
      errors.push(message);
      continue;
    }
    const { line } = d.file!.getLineAndCharacterOfPosition(d.start);
    const where =
      line < o.offset
        ? `${o.block.file}:${o.block.line} (its ts-context)`
        : `${o.block.file}:${o.block.line + line - o.offset}`;
    errors.push(`${where}: ${message}`);
  }
  return errors;
}

/**
 * The page with each `<!--@include: path{range}-->` replaced by the file it names (the range ignored);
 * a generated part (docs/parts, written by `make docs`) is left out: it holds no kbts command.
 */
export function withIncludes(markdown: string, file: string): string {
  const generated = Object.values(GENERATED).map((p) => join(DOCS, p));
  return markdown.replace(/<!--@include:\s*([^{}\s]+)(\{[^}]*\})?\s*-->/g, (_, path: string) => {
    const included = join(dirname(file), path);
    return generated.includes(included) ? "" : readFileSync(included, "utf8");
  });
}

/** Shell words of one command line: quotes removed, a trailing `# comment` and `&` dropped. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (c === "\\" && line[i + 1] === "\n") i++;
    else if (/\s/.test(c)) {
      if (started) words.push(word);
      word = "";
      started = false;
    } else if (c === "#" && !started) break;
    else {
      word += c;
      started = true;
    }
  }
  if (started) words.push(word);
  while (words.at(-1) === "&" || words.at(-1) === "&&") words.pop();
  return words;
}

/**
 * What is wrong with a `kbts ...` command line for this kbts (undefined when nothing): an unknown
 * command or an option its command does not have. Commands are not run: this holds the blocks that
 * cannot run here (a real cluster, Docker) to the CLI too.
 */
export function kbtsCommandProblem(program: Command, words: string[]): string | undefined {
  let cmd = program;
  let i = 1;
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith("-")) break;
    const sub = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (!sub) {
      if (cmd.commands.length > 0 && cmd.registeredArguments.length === 0)
        return `no command "${words.slice(0, i + 1).join(" ")}"`;
      break;
    }
    cmd = sub;
  }
  for (const w of words.slice(i)) {
    if (!w.startsWith("-") || w === "-" || w === "--") continue;
    const flag = w.split("=")[0]!;
    const known = [...cmd.options, ...(cmd === program ? [] : program.options)].some(
      (o) =>
        o.long === flag ||
        o.short === flag ||
        (o.negate && o.long === flag) ||
        o.long === flag.replace(/^--no-/, "--"),
    );
    if (!known && flag !== "--help" && flag !== "-h")
      return `${words.slice(0, i).join(" ")} has no option ${flag}`;
  }
  return undefined;
}
