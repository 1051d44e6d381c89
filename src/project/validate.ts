import { isMap, isSeq, LineCounter, parseDocument } from "yaml";
import { KbtsError } from "../errors.js";
import type { StagedFS } from "../files/staged.js";
import { ts } from "../ts/typescript.js";
import { yamlNodeWhere } from "../yaml/where.js";
import { PROJECT_FILE } from "./config.js";
import {
  validateDomain,
  validateGroup,
  validateKind,
  validatePlural,
  validateProjectName,
  validateRepo,
  validateVersion,
} from "./names.js";

/**
 * What the API server (and the TypeScript compiler) would refuse, refused before anything is written:
 * PROJECT's values as it is read, the names of a new resource as a whole (lengths the flags alone do
 * not show), built-in groups and kinds, and generated identifiers that collide.
 */

/** Runs a flag validator on a PROJECT value, reporting it at its line in PROJECT. */
function atLine(where: string, field: string, check: () => void): void {
  try {
    check();
  } catch (err) {
    if (!(err instanceof KbtsError)) throw err;
    throw new KbtsError(`${field}: ${err.message}`, {
      where,
      fix: "correct the value in PROJECT (or restore PROJECT from version control)",
    });
  }
}

/**
 * PROJECT values that reach generated code and manifests: domain, projectName, repo, and each
 * resource's group, version, kind, plural and domain. Errors name PROJECT:line.
 */
export function checkProjectValues(text: string, file = PROJECT_FILE): void {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (!isMap(doc.contents)) return;
  const lineOf = (node: unknown) => yamlNodeWhere(file, lines, node);
  const str = (map: unknown, key: string): { value: unknown; where: string } | undefined => {
    if (!isMap(map)) return undefined;
    const pair = map.items.find((p) => (p.key as { value?: unknown })?.value === key);
    if (!pair) return undefined;
    return { value: (pair.value as { value?: unknown })?.value, where: lineOf(pair.key) };
  };
  const need = (
    v: { value: unknown; where: string } | undefined,
    field: string,
  ): v is { value: string; where: string } => {
    if (v === undefined) return false;
    if (typeof v.value !== "string") {
      throw new KbtsError(`${field} must be a string`, { where: v.where, fix: "correct it in PROJECT" });
    }
    return true;
  };
  const domain = str(doc.contents, "domain");
  if (need(domain, "domain") && domain.value !== "")
    atLine(domain.where, "domain", () => validateDomain(domain.value));
  const name = str(doc.contents, "projectName");
  if (need(name, "projectName")) atLine(name.where, "projectName", () => validateProjectName(name.value));
  const repo = str(doc.contents, "repo");
  if (need(repo, "repo")) atLine(repo.where, "repo", () => validateRepo(repo.value));

  const resources = doc.get("resources");
  if (!isSeq(resources)) return;
  resources.items.forEach((entry, i) => {
    const at = lineOf(entry);
    if (!isMap(entry)) {
      throw new KbtsError(`resources[${i}] must be a mapping`, { where: at, fix: "correct it in PROJECT" });
    }
    for (const key of ["group", "version", "kind"]) {
      if (str(entry, key) === undefined) {
        throw new KbtsError(`resources[${i}] has no ${key}`, {
          where: at,
          fix: `add its ${key} (every resource entry has group, version and kind), or remove the entry`,
        });
      }
    }
    const group = str(entry, "group");
    const core = str(entry, "core")?.value === true;
    if (need(group, `resources[${i}].group`) && !(core && group.value === "core")) {
      atLine(group.where, `resources[${i}].group`, () => validateGroup(group.value));
    }
    const version = str(entry, "version");
    if (need(version, `resources[${i}].version`)) {
      atLine(version.where, `resources[${i}].version`, () => validateVersion(version.value));
    }
    const kind = str(entry, "kind");
    if (need(kind, `resources[${i}].kind`))
      atLine(kind.where, `resources[${i}].kind`, () => validateKind(kind.value));
    const plural = str(entry, "plural");
    if (need(plural, `resources[${i}].plural`)) {
      atLine(plural.where, `resources[${i}].plural`, () => validatePlural(plural.value));
    }
    const rdomain = str(entry, "domain");
    if (need(rdomain, `resources[${i}].domain`) && rdomain.value !== "") {
      atLine(rdomain.where, `resources[${i}].domain`, () => validateDomain(rdomain.value));
    }
  });
}

/**
 * The kind becomes identifiers in generated TypeScript (`Memcached`, `MemcachedSpec`, `MemcachedKind`,
 * `MemcachedReconciler`...). A kind named like a global (Proxy, Promise, Map) is fine: where the kind
 * is in scope, templates name the global `globalThis.Promise` (and the runtime's Request as
 * KbtsRequest). A kind named like something else a generated file imports (`Manager`, `Result`,
 * `Condition`, `ObjectMeta`...) gives a project that does not compile: refused here, after staging,
 * by reading each staged file's imports and declarations.
 */
export function checkIdentifierCollisions(fs: StagedFS, kind: string): void {
  for (const change of fs.changes()) {
    if (!change.path.endsWith(".ts") || typeof change.content !== "string") continue;
    const sf = ts.createSourceFile(change.path, change.content, ts.ScriptTarget.Latest, false);
    const seen = new Map<string, string>();
    const add = (name: string, origin: string): void => {
      const before = seen.get(name);
      if (before !== undefined && before !== origin) {
        throw new KbtsError(
          `kind ${kind} makes ${name} both ${before} and ${origin} in ${change.path}, which does not compile`,
          { where: "--kind", fix: `choose another kind name, e.g. --kind App${kind}` },
        );
      }
      seen.set(name, origin);
    };
    for (const stmt of sf.statements) {
      if (ts.isImportDeclaration(stmt) && ts.isStringLiteral(stmt.moduleSpecifier)) {
        const from = `imported from "${stmt.moduleSpecifier.text}"`;
        const clause = stmt.importClause;
        if (clause?.name) add(clause.name.text, from);
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings))
          for (const el of bindings.elements) add(el.name.text, from);
        if (bindings && ts.isNamespaceImport(bindings)) add(bindings.name.text, from);
      } else if (
        (ts.isInterfaceDeclaration(stmt) ||
          ts.isClassDeclaration(stmt) ||
          ts.isFunctionDeclaration(stmt) ||
          ts.isTypeAliasDeclaration(stmt)) &&
        stmt.name
      ) {
        add(stmt.name.text, "declared here");
      }
    }
  }
}
