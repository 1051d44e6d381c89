import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { compareStrings } from "../compare.js";
import { buildCrds } from "../crd/build.js";
import { KbtsError } from "../errors.js";
import { findApiPackages } from "../loading/packages.js";
import { findSourceFiles, loadProject, type ParsedFiles } from "../loading/program.js";
import { MarkerCollector } from "../markers/collect.js";
import type { MarkerWarning } from "../markers/parse.js";
import {
  formatLocation,
  instancesOf,
  type MarkerInstance,
  type MarkerLocation,
} from "../markers/registry.js";
import { generateRoles } from "../rbac/generate.js";
import { guardMarker } from "../rbac/guard-markers.js";
import { GUARDS_FILE, generateGuards } from "../rbac/guards.js";
import { rbacMarker } from "../rbac/markers.js";
import { registry } from "../registry.js";
import { loadKnownTypes } from "../schema/known.js";
import { SchemaWalker } from "../schema/walker.js";
import { ts } from "../ts/typescript.js";
import { kbtsVersion, VERSION_ANNOTATION } from "../version.js";
import { generateWebhookConfigurations, WebhookError } from "../webhook/generate.js";
import { webhookConfigurationMarker, webhookMarker } from "../webhook/markers.js";
import { type JsonValue, toYamlDocuments } from "../yaml/emit.js";
import { checkCrds, type MarkersAtNode, visitMarkers } from "./checks.js";
import { crdSizeWarning } from "./crd-size.js";

export interface ManifestOptions {
  /** Project root; paths and output are relative to it. */
  root: string;
  /** Globs of TypeScript files to scan (default: api/** and internal/**). */
  paths?: string[];
  /** Where CRDs go (default config/crd/bases). */
  crdOutput?: string;
  /** Name of the ClusterRole/Roles (default manager-role). */
  roleName?: string;
  /** Allow float fields (number/float64), as controller-gen's crd:allowDangerousTypes. */
  allowDangerousTypes?: boolean;
  /** Warnings (unknown or misspelt markers) are errors: nothing is written while one remains (CI). */
  strict?: boolean;
  /**
   * Skip kbts' own checks of the built CRDs (printer columns, CEL, list-map keys, defaults), so a test
   * can hand the API server exactly what the markers say and compare verdicts (testdata/broken-crds).
   */
  unchecked?: boolean;
  /** Sees every declaration's markers beside the schema node they made (the breaking-change gate's sources). */
  visitMarkers?: (node: MarkersAtNode) => void;
  /** Parsed files kept from the last run (`--watch`): unchanged files are not parsed again. */
  parsed?: ParsedFiles;
}

export interface ManifestResult {
  /** Generated files: path relative to root → content. */
  files: Map<string, string>;
  /** The CRD files among them: path → CRD name (plural.group), so no caller re-parses the YAML. */
  crdNames: Map<string, string>;
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

/**
 * Generates CRDs, RBAC roles and webhook configurations from a project's TypeScript, in memory.
 * Throws ManifestErrors listing every error; returns the files and the warnings otherwise.
 */
export async function generateManifests(opts: ManifestOptions): Promise<ManifestResult> {
  const root = opts.root;
  const paths = await findSourceFiles(root, opts.paths);
  const loaded = loadProject(paths, root, opts.parsed);
  await loadKnownTypes(loaded.program.getSourceFiles().map((sf) => sf.text));
  const collector = new MarkerCollector(registry, root);
  const packages = findApiPackages(root, loaded.files, collector, loaded.checker);
  const optionalFiles = new Set(packages.filter((p) => p.optionalByDefault).flatMap((p) => p.files));
  const walker = new SchemaWalker(loaded.checker, collector, {
    root,
    allowDangerousTypes: opts.allowDangerousTypes ?? false,
    packageOptional: (sf) => optionalFiles.has(sf),
  });
  const errors: KbtsError[] = syntaxErrors(root, loaded.program, loaded.files);
  const crds = buildCrds(root, packages, walker, collector, { [VERSION_ANNOTATION]: kbtsVersion() }, errors);
  errors.push(...walker.errors);
  if (errors.length === 0 && !opts.unchecked) checkCrds(crds, collector, loaded.checker, errors);
  if (errors.length === 0 && opts.visitMarkers)
    visitMarkers(crds, collector, loaded.checker, opts.visitMarkers);

  const pkgMarkers: MarkerInstance[] = loaded.files.flatMap((sf) => collector.packageMarkers(sf));
  const files = new Map<string, string>();
  const out = opts.crdOutput ?? "config/crd/bases";
  const crdDir = (isAbsolute(out) ? relative(root, out) : out).replace(/\/$/, "") || ".";
  const crdKinds = new Map<string, string>();
  const sizeWarnings: MarkerWarning[] = [];
  const crdNames = new Map<string, string>();
  for (const { crd, versions } of crds) {
    // Two kinds with one group and plural are one CRD name: the API server would keep only one.
    const name = `${crd.spec.names.plural}.${crd.spec.group}`;
    const other = crdKinds.get(name);
    if (other !== undefined && other !== crd.spec.names.kind) {
      const decl = [...versions.values()][0]?.decl;
      const sf = decl?.getSourceFile();
      const pos = decl && sf ? sf.getLineAndCharacterOfPosition(decl.getStart(sf)) : undefined;
      errors.push(
        new KbtsError(`kinds ${other} and ${crd.spec.names.kind} both make the CRD ${name}`, {
          ...(sf && pos
            ? { where: `${relative(root, sf.fileName)}:${pos.line + 1}:${pos.character + 1}` }
            : {}),
          fix: "give one of them another plural: // +kubebuilder:resource:path=<plural>",
        }),
      );
      continue;
    }
    crdKinds.set(name, crd.spec.names.kind);
    const file = `${crdDir}/${crd.spec.group}_${crd.spec.names.plural}.yaml`;
    files.set(file, render([crd]));
    crdNames.set(file, name);
    const big = crdSizeWarning(file, name, files.get(file) as string);
    if (big) sizeWarnings.push(big);
  }

  const rules = instancesOf(pkgMarkers, rbacMarker).map((m) => m.value);
  const roles = generateRoles(rules, opts.roleName ?? "manager-role");
  if (roles.length > 0) files.set("config/rbac/role.yaml", render(roles));
  const read = new Map(loaded.read);
  const guards = generateGuards(
    {
      root,
      guards: instancesOf(pkgMarkers, guardMarker),
      rbac: instancesOf(pkgMarkers, rbacMarker),
      crds: crds.map((c) => c.crd),
      read,
    },
    errors,
  );
  const guardWarnings: MarkerWarning[] = [];
  if (guards.length > 0) {
    files.set(GUARDS_FILE, render(guards));
    const listed = guardsListed(root);
    if (listed !== undefined) read.set(join(root, "config/rbac/kustomization.yaml"), listed.text);
    if (listed && !listed.yes) {
      guardWarnings.push({
        where: "config/rbac/kustomization.yaml",
        message:
          "write_guards.yaml is not among its resources: make deploy would not install the write guards; add - write_guards.yaml",
      });
    }
  } else if (existsSync(join(root, GUARDS_FILE))) {
    // The last guard marker is gone: its policy must go too, or make deploy keeps installing a guard
    // nobody asked for. Emptied rather than deleted, so the kustomization that lists it still builds.
    files.set(GUARDS_FILE, NO_GUARDS);
  }

  const hooks = instancesOf(pkgMarkers, webhookMarker);
  const webhookConfigs = instancesOf(pkgMarkers, webhookConfigurationMarker);
  const where = new Map<object, MarkerLocation>([...hooks, ...webhookConfigs].map((m) => [m.value, m.loc]));
  try {
    const configs = generateWebhookConfigurations(
      hooks.map((m) => m.value),
      webhookConfigs.map((m) => m.value),
      (marker) => where.get(marker),
    );
    if (configs.length > 0) files.set("config/webhook/manifests.yaml", render(configs));
  } catch (err) {
    if (!(err instanceof WebhookError)) throw err;
    errors.push(
      new KbtsError(
        `+kubebuilder:webhook: ${err.message}`,
        err.loc ? { where: formatLocation(err.loc) } : {},
      ),
    );
  }

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
  return {
    files: new Map([...files].sort(([a], [b]) => compareStrings(a, b))),
    crdNames,
    inputs: { scanned: paths, read, probed: loaded.probed },
    warnings: [...collector.warnings, ...sizeWarnings, ...guardWarnings],
  };
}

/** Whether config/rbac/kustomization.yaml lists the guards file (undefined when there is none). */
function guardsListed(root: string): { yes: boolean; text: string } | undefined {
  try {
    const text = readFileSync(join(root, "config/rbac/kustomization.yaml"), "utf8");
    return { yes: /^\s*-\s*write_guards\.yaml\s*$/m.test(text), text };
  } catch {
    return undefined;
  }
}

/** config/rbac/write_guards.yaml once the project has no +kbts:guard marker left. */
export const NO_GUARDS =
  "# No +kbts:guard markers: no write guards. kbts manifests writes them here when there are.\n";

function render(objects: unknown[]): string {
  return toYamlDocuments(JSON.parse(JSON.stringify(objects)) as JsonValue[]);
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
      const file = relative(root, sf.fileName) || sf.fileName;
      return new KbtsError(`TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`, {
        where: pos ? `${file}:${pos.line + 1}:${pos.character + 1}` : file,
        fix: "fix the TypeScript (npx tsc -p tsconfig.json shows the same error)",
      });
    }),
  );
}
