import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { glob } from "tinyglobby";
import { Project, ts } from "ts-morph";
import { KbtsError } from "../errors.js";
import { checkNesting, checkScanPaths } from "./bounds.js";
import { KBTS_LIB, KBTS_LIB_PATH } from "./minimal-lib.js";

/** The source files of one run: one ts-morph Project, only the scanned files and their relative imports. */
export interface LoadedProject {
  project: Project;
  program: ts.Program;
  checker: ts.TypeChecker;
  /** The scanned files (absolute paths), in a stable order. */
  files: ts.SourceFile[];
}

export const DEFAULT_PATHS = ["api/**/*.ts", "internal/**/*.ts"];
const IGNORE = ["**/node_modules/**", "**/dist/**", "**/*.test.ts", "**/*.d.ts"];

/**
 * The TypeScript files a run scans. Paths given by the user (`--paths`) must lie inside the project
 * and must match something: an empty match is an error, not an empty (and "up to date") run.
 */
export async function findSourceFiles(root: string, paths?: string[]): Promise<string[]> {
  const given = paths === undefined ? DEFAULT_PATHS : checkScanPaths(root, paths);
  const patterns = given.map((p) =>
    p.endsWith(".ts") || p.includes("*") ? p : `${p.replace(/\/$/, "")}/**/*.ts`,
  );
  const found = await glob(patterns, { cwd: root, ignore: IGNORE, absolute: true, onlyFiles: true });
  if (paths !== undefined && found.length === 0) {
    throw new KbtsError(`${paths.map((p) => JSON.stringify(p)).join(" ")} matched no TypeScript files`, {
      where: "--paths",
      fix: "name directories or files of the project that hold .ts files (test and .d.ts files are skipped), e.g. --paths api",
    });
  }
  return found.sort();
}

/** Adds a file after checking its nesting, so a too-deep file fails with its location, not a stack overflow. */
function addChecked(project: Project, file: string, root: string) {
  const text = readFileSync(file, "utf8");
  checkNesting(text, relative(root, file) || file);
  return project.createSourceFile(file, text, { overwrite: true });
}

/**
 * Loads the files without resolving node_modules: types imported from "@kbts/runtime" are known by
 * name, so the runtime's sources (and client-node behind them) are never parsed. Relative imports are
 * followed so API types may live in shared files.
 */
export function loadProject(paths: string[], root = process.cwd()): LoadedProject {
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    // Only relative imports resolve: packages (the runtime, client-node) are never loaded.
    resolutionHost: (host, getOptions) => ({
      resolveModuleNames: (names, containingFile) =>
        names.map((name) =>
          name.startsWith(".")
            ? ts.resolveModuleName(name, containingFile, getOptions(), host).resolvedModule
            : undefined,
        ),
    }),
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      noLib: true,
    },
  });
  project.createSourceFile(KBTS_LIB_PATH, KBTS_LIB, { overwrite: true });
  const scanned = paths.map((f) => addChecked(project, f, root));
  // Follow relative imports (not packages) so every user-declared type is in the program.
  const queue = [...scanned];
  const seen = new Set(scanned.map((s) => s.getFilePath() as string));
  while (queue.length > 0) {
    const sf = queue.pop();
    if (!sf) break;
    for (const decl of [...sf.getImportDeclarations(), ...sf.getExportDeclarations()]) {
      const spec = decl.getModuleSpecifierValue();
      if (!spec?.startsWith(".")) continue;
      const base = resolve(dirname(sf.getFilePath()), spec);
      const candidates = [base, base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")];
      const hit = candidates.find((c) => c.endsWith(".ts") && existsSync(c) && !seen.has(c));
      if (hit && isAbsolute(hit)) {
        seen.add(hit);
        queue.push(addChecked(project, hit, root));
      }
    }
  }
  const program = project.getProgram().compilerObject;
  const checker = program.getTypeChecker();
  const files = scanned.map((s) => program.getSourceFile(s.getFilePath()) ?? s.compilerNode);
  return { project, program, checker, files };
}
