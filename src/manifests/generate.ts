import { compareStrings } from "../compare.js";
import { KbtsError } from "../errors.js";
import { findSourceFiles, loadProject, type ParsedFiles } from "../loading/program.js";
import { MarkerCollector } from "../markers/collect.js";
import type { MarkerWarning } from "../markers/parse.js";
import type { MarkerInstance } from "../markers/registry.js";
import { loadKnownTypes } from "../schema/known.js";
import { ts } from "../ts/typescript.js";
import { sourcePath } from "../ts/where.js";
import type { GenerationContext, GeneratorOptions, ManifestObjects } from "./generator.js";
import { generators, registry } from "./generators.js";

export interface ManifestOptions extends GeneratorOptions {
  /** Project root; paths and output are relative to it. */
  root: string;
  /** Globs of TypeScript files to scan (default: api/** and internal/**). */
  paths?: string[];
  /** Warnings (unknown or misspelt markers) are errors: nothing is written while one remains (CI). */
  strict?: boolean;
  /** Parsed files kept from the last run (`--watch`): unchanged files are not parsed again. */
  parsed?: ParsedFiles;
}

/** A run's files and objects (ManifestObjects), what it read, and its warnings. */
export interface ManifestResult extends ManifestObjects {
  /** What the run read, for the input-hash cache: the scanned files, every file's text, absent imports. */
  inputs: { scanned: string[]; read: Map<string, string>; probed: string[] };
  warnings: MarkerWarning[];
}

/** Every problem of a run, reported together (nothing is written when there is one). */
export class ManifestErrors extends KbtsError {
  constructor(readonly errors: KbtsError[]) {
    super(
      errors.length === 1
        ? (errors[0] as KbtsError).message
        : `${errors.length} problems in API types and markers`,
      {
        ...(errors.length === 1 && errors[0]?.where ? { where: errors[0].where } : {}),
        ...(errors.length === 1 && errors[0]?.fix ? { fix: errors[0].fix } : {}),
      },
    );
  }

  override format(): string {
    if (this.errors.length === 1) return (this.errors[0] as KbtsError).format();
    return [this.message, ...this.errors.map((e) => e.format().replaceAll("\n", "\n  "))].join("\n");
  }
}

export { VERSION_ANNOTATION } from "../version.js";
export { NO_GUARDS } from "./generators.js";

/**
 * Generates CRDs, RBAC roles and webhook configurations from a project's TypeScript, in memory: loads
 * the program once, then runs each generator (generators.ts) over it. Throws ManifestErrors listing
 * every error; returns the files, their objects and the warnings otherwise.
 */
export async function generateManifests(opts: ManifestOptions): Promise<ManifestResult> {
  const root = opts.root;
  const paths = await findSourceFiles(root, opts.paths);
  const loaded = loadProject(paths, root, opts.parsed);
  await loadKnownTypes(loaded.program.getSourceFiles().map((sf) => sf.text));
  const collector = new MarkerCollector(registry, root);
  let pkgMarkers: MarkerInstance[] | undefined;
  const ctx: GenerationContext = {
    root,
    options: opts,
    loaded,
    collector,
    packageMarkers: () => {
      pkgMarkers ??= loaded.files.flatMap((sf) => collector.packageMarkers(sf));
      return pkgMarkers;
    },
    kinds: [],
    read: new Map(loaded.read),
    output: { files: new Map(), crds: new Map(), roles: [], webhooks: [] },
    errors: syntaxErrors(root, loaded.program, loaded.files),
    warnings: [],
  };
  for (const generator of generators) generator.generate(ctx);

  const errors = ctx.errors;
  errors.unshift(...collector.errors);
  if (opts.strict) {
    errors.push(
      ...collector.warnings.map(
        (w) =>
          new KbtsError(`${w.message} (an error with --strict)`, {
            where: w.where,
            fix: "fix the marker's spelling, or remove it if it is not for kbts",
          }),
      ),
    );
  }
  if (errors.length > 0) throw new ManifestErrors(dedupe(errors));
  const { files, crds, roles, webhooks } = ctx.output;
  return {
    files: new Map([...files].sort(([a], [b]) => compareStrings(a, b))),
    crds,
    roles,
    webhooks,
    inputs: { scanned: paths, read: ctx.read, probed: loaded.probed },
    warnings: [...collector.warnings, ...ctx.warnings],
  };
}

function dedupe(errors: KbtsError[]): KbtsError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = e.format();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The compiler's own syntax errors in the scanned files: a file TypeScript cannot parse must not be
 * turned into a CRD from the parser's guesses. (Type errors are the project's `tsc` to report: the
 * runtime's types are not loaded here.)
 */
function syntaxErrors(root: string, program: ts.Program, files: readonly ts.SourceFile[]): KbtsError[] {
  return files.flatMap((sf) =>
    program.getSyntacticDiagnostics(sf).map((d) => {
      const pos = d.start === undefined ? undefined : sf.getLineAndCharacterOfPosition(d.start);
      const file = sourcePath(root, sf.fileName);
      return new KbtsError(`TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`, {
        where: pos ? `${file}:${pos.line + 1}:${pos.character + 1}` : file,
        fix: "fix the TypeScript (npx tsc -p tsconfig.json shows the same error)",
      });
    }),
  );
}
