import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { ts } from "../ts/typescript.js";
import { KBTS_LIB, KBTS_LIB_PATH } from "./minimal-lib.js";
import { checkNesting } from "./nesting.js";

export { DEFAULT_PATHS, findSourceFiles } from "./sources.js";

/** The source files of one run: one program of the scanned files and their relative imports. */
export interface LoadedProject {
  program: ts.Program;
  checker: ts.TypeChecker;
  /** The scanned files (absolute paths), in a stable order. */
  files: ts.SourceFile[];
  /** Every file the program read from disk (scanned, imported, .d.ts): absolute path → the text parsed. */
  read: Map<string, string>;
  /** Files an import was looked for at and not found: creating one would change the program. */
  probed: string[];
}

/** The compiler options of every kbts program (no lib: KBTS_LIB stands in for it). */
export const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
  noLib: true,
};

/**
 * Parsed files kept between the runs of `kbts manifests --watch`: a file whose text is unchanged is
 * not parsed (or bound) again, and the next program reuses the last one's structure.
 */
export class ParsedFiles {
  readonly byPath = new Map<string, ts.SourceFile>();
  lastProgram: ts.Program | undefined;

  /** The parsed file for this text: the kept one if the text is unchanged. */
  parse(file: string, text: string, root: string): ts.SourceFile {
    const kept = this.byPath.get(file);
    if (kept?.text === text) return kept;
    if (file !== KBTS_LIB_PATH) checkNesting(text, relative(root, file) || file);
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    this.byPath.set(file, sf);
    return sf;
  }
}

/**
 * Loads the files without resolving node_modules: types imported from "@kbts/runtime" are known by
 * name, so the runtime's sources (and client-node behind them) are never parsed. Relative imports are
 * followed so API types may live in shared files. Files are checked for nesting before parsing, so a
 * too-deep file fails with its location, not a stack overflow.
 */
export function loadProject(paths: string[], root = process.cwd(), kept = new ParsedFiles()): LoadedProject {
  const read = new Map<string, ts.SourceFile>();
  const probed = new Set<string>();
  const readParsed = (file: string): ts.SourceFile => {
    const sf = read.get(file) ?? kept.parse(file, readFileSync(file, "utf8"), root);
    read.set(file, sf);
    return sf;
  };
  const scanned = paths.map(readParsed);
  // Follow relative imports (not packages) so every user-declared type is in the program.
  const queue = [...scanned];
  const seen = new Set(paths);
  while (queue.length > 0) {
    const sf = queue.pop();
    if (!sf) break;
    for (const stmt of sf.statements) {
      if (!ts.isImportDeclaration(stmt) && !ts.isExportDeclaration(stmt)) continue;
      const spec = stmt.moduleSpecifier;
      if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith(".")) continue;
      const base = resolve(dirname(sf.fileName), spec.text);
      const candidates = [base, base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")].filter(
        (c) => c.endsWith(".ts"),
      );
      const hit = candidates.find((c) => seen.has(c) || existsSync(c));
      for (const c of candidates.slice(0, hit ? candidates.indexOf(hit) : undefined)) probed.add(c);
      if (hit && !seen.has(hit) && isAbsolute(hit)) {
        seen.add(hit);
        queue.push(readParsed(hit));
      }
    }
  }
  const lib = kept.parse(KBTS_LIB_PATH, KBTS_LIB, root);
  const host = ts.createCompilerHost(OPTIONS, true);
  host.getSourceFile = (file) => {
    if (file === KBTS_LIB_PATH) return lib;
    // A file the imports above did not reach (a relative import of a .d.ts) is read like ts-morph did.
    return read.has(file) || existsSync(file) ? readParsed(file) : undefined;
  };
  // Only relative imports resolve: packages (the runtime, client-node) are never loaded.
  host.resolveModuleNames = (names, containingFile) =>
    names.map((name) =>
      name.startsWith(".")
        ? ts.resolveModuleName(name, containingFile, OPTIONS, host).resolvedModule
        : undefined,
    );
  const program = ts.createProgram([KBTS_LIB_PATH, ...seen], OPTIONS, host, kept.lastProgram);
  kept.lastProgram = program;
  const checker = program.getTypeChecker();
  const files = scanned.map((s) => program.getSourceFile(s.fileName) ?? s);
  return {
    program,
    checker,
    files,
    read: new Map([...read].map(([file, sf]) => [file, sf.text])),
    probed: [...probed].sort(),
  };
}
