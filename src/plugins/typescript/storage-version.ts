import type { StagedFS } from "../../files/staged.js";
import type { ProjectConfig } from "../../project/config.js";
import type { ResourceModel } from "../../project/resource.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import { ts } from "../../ts/typescript.js";

/**
 * A CRD serves several versions but stores one: the version whose root type carries
 * `// +kubebuilder:storageversion`. These helpers keep exactly one version of a kind marked, editing
 * only the comments above the exported root interface `<Kind>` of each version's types file, found by
 * TypeScript's parser.
 */

export const STORAGE_VERSION_MARKER = "// +kubebuilder:storageversion";
const ROOT_MARKER = "// +kubebuilder:object:root=true";

/** The versions of a kind that PROJECT says have API types, in creation order. */
export function apiVersionsOf(config: ProjectConfig, r: Pick<ResourceModel, "group" | "kind">): string[] {
  return (config.resources ?? [])
    .filter((x) => x.api && !x.core && x.group === r.group && x.kind === r.kind)
    .map((x) => x.version);
}

export function typesFile(r: Pick<ResourceModel, "groupDir" | "kindLower">, version: string): string {
  return `api/${r.groupDir}${version}/${r.kindLower}_types.ts`;
}

/**
 * The `//` comments above the kind's exported root interface, found by TypeScript's parser (so the
 * file's formatting does not matter): each with its text and the [start, end) of its whole line.
 */
function rootComments(text: string, kind: string): { text: string; line: [number, number] }[] | undefined {
  const file = ts.createSourceFile("types.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const root = file.statements.find(
    (s) =>
      ts.isInterfaceDeclaration(s) &&
      s.name.text === kind &&
      s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
  );
  if (root === undefined) return undefined;
  return (ts.getLeadingCommentRanges(text, root.pos) ?? [])
    .filter((c) => c.kind === ts.SyntaxKind.SingleLineCommentTrivia)
    .map((c) => {
      const from = text.lastIndexOf("\n", c.pos - 1) + 1;
      const to = text.indexOf("\n", c.end);
      return { text: text.slice(c.pos, c.end).trim(), line: [from, to < 0 ? text.length : to + 1] };
    });
}

function hasStorageMarker(text: string | undefined, kind: string): boolean {
  if (text === undefined) return false;
  return rootComments(text, kind)?.some((c) => c.text === STORAGE_VERSION_MARKER) === true;
}

/** The versions of the kind whose types file marks the root type as the storage version. */
export function storageVersionsOf(
  fs: StagedFS,
  config: ProjectConfig,
  r: Pick<ResourceModel, "group" | "kind" | "groupDir" | "kindLower">,
): string[] {
  return apiVersionsOf(config, r).filter((v) => hasStorageMarker(fs.read(typesFile(r, v)), r.kind));
}

/** Adds the marker right under the root marker of the kind in `version`; false when the block is not the scaffolded one. */
function addMarker(s: Scaffold, r: ResourceModel, version: string): boolean {
  let added = false;
  s.edit(typesFile(r, version), (text) => {
    const root = rootComments(text, r.kind)?.find((c) => c.text === ROOT_MARKER);
    if (root === undefined) return text;
    const [from, to] = root.line;
    const indent = text.slice(from, to).match(/^\s*/)?.[0] ?? "";
    added = true;
    return `${text.slice(0, to)}${indent}${STORAGE_VERSION_MARKER}\n${text.slice(to)}`;
  });
  return added;
}

function removeMarker(s: Scaffold, r: ResourceModel, version: string): void {
  s.edit(typesFile(r, version), (text) => {
    const marker = rootComments(text, r.kind)?.find((c) => c.text === STORAGE_VERSION_MARKER);
    return marker ? text.slice(0, marker.line[0]) + text.slice(marker.line[1]) : text;
  });
}

/**
 * After `create api` wrote a version's types: when a second version of a kind is added and none is
 * marked yet, the version that already existed becomes the storage version (its data is what the
 * cluster holds), as Kubebuilder's types updater does for conversion hubs; a re-scaffolded (--force)
 * storage version keeps its marker. Edited only where the scaffolded block is intact; otherwise
 * `kbts manifests` asks the user to choose.
 */
export function keepExistingStorageVersion(
  s: Scaffold,
  config: ProjectConfig,
  r: ResourceModel,
  storedBefore: string[],
): void {
  if (storedBefore.includes(r.version)) {
    if (!hasStorageMarker(s.fs.read(typesFile(r, r.version)), r.kind)) addMarker(s, r, r.version);
    return;
  }
  const others = apiVersionsOf(config, r).filter((v) => v !== r.version);
  const first = others[0];
  if (first === undefined || others.some((v) => hasStorageMarker(s.fs.read(typesFile(r, v)), r.kind))) return;
  addMarker(s, r, first);
}

/**
 * Makes `version` the one storage version of the kind (a conversion hub is stored, as in
 * Kubebuilder): marks it and unmarks every other version. Returns false when the hub's root type
 * has no scaffolded `+kubebuilder:object:root=true` line to put the marker under.
 */
export function moveStorageVersion(s: Scaffold, config: ProjectConfig, r: ResourceModel): boolean {
  for (const v of apiVersionsOf(config, r)) {
    if (v !== r.version) removeMarker(s, r, v);
  }
  if (hasStorageMarker(s.fs.read(typesFile(r, r.version)), r.kind)) return true;
  return addMarker(s, r, r.version);
}
