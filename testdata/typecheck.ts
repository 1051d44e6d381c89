/**
 * `tsc -p <dir>/tsconfig.json` (the projects' noEmit check) in the test's own process, with the
 * repository's TypeScript, the same package `typescript/bin/tsc` runs. Declaration files that do not
 * change during a run (lib.*.d.ts, node_modules, @kbts/runtime's dist/) are parsed and bound once per
 * process and shared between the projects checked, as TypeScript's language service shares them
 * between projects: a spawned tsc spent most of its 7 to 20 s on the 1,300 such files of every project.
 */
import { dirname, join, resolve } from "node:path";
import ts from "typescript";

const shared = new Map<string, ts.SourceFile>();
const LIB_DIR = dirname(ts.getDefaultLibFilePath({}));

/** lib.*.d.ts, installed packages and the built @kbts/runtime (tests build it before checking). */
function unchanging(file: string): boolean {
  return file.startsWith(`${LIB_DIR}/`) || file.includes("/node_modules/") || file.includes("/runtime/dist/");
}

/** Options that name the project's own paths: they do not change how a shared file is parsed. */
const PER_PROJECT = new Set(["configFilePath", "rootDir", "outDir", "tsBuildInfoFile", "pathsBasePath"]);

function optionsKey(options: ts.CompilerOptions): string {
  return JSON.stringify(Object.entries(options).filter(([k]) => !PER_PROJECT.has(k)));
}

function sourceKey(options: string, file: string, how: ts.ScriptTarget | ts.CreateSourceFileOptions): string {
  const o = typeof how === "object" ? how : { languageVersion: how };
  return `${options}\0${o.languageVersion}\0${o.impliedNodeFormat}\0${o.jsDocParsingMode}\0${file}`;
}

/**
 * What `tsc -p tsconfig.json` prints for the project in `dir`, in tsc's format; empty when tsc would
 * exit 0 (it exits non-zero for any diagnostic: config, options, syntax, global or semantic).
 */
export function typecheckProject(project: string): string {
  const dir = resolve(project);
  const unrecoverable: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(dir, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => unrecoverable.push(d) },
  );
  if (!parsed) return format(unrecoverable);
  const host = ts.createCompilerHost(parsed.options);
  const key = optionsKey(parsed.options);
  const own = host.getSourceFile.bind(host);
  host.getSourceFile = (file, how, onError, create) => {
    // The project's own files are read fresh; only what lives outside it is shared.
    if (!unchanging(file) || file.startsWith(`${dir}/`)) return own(file, how, onError, create);
    const k = sourceKey(key, file, how);
    let sf = shared.get(k);
    if (!sf) {
      sf = own(file, how, onError, create);
      if (sf) shared.set(k, sf);
    }
    return sf;
  };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  return format(ts.getPreEmitDiagnostics(program));
}

function format(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => "\n",
  });
}
