import type { ProjectConfig } from "../../project/config.js";
import type { ResourceModel } from "../../project/resource.js";
import type { StagedFS } from "../../scaffold/fs.js";
import type { Scaffold } from "../../scaffold/scaffold.js";

/**
 * A CRD serves several versions but stores one: the version whose root type carries
 * `// +kubebuilder:storageversion`. These helpers keep exactly one version of a kind marked, editing
 * only the comment block above `export interface <Kind> {` of each version's types file.
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

/** The comment lines directly above the kind's root interface: [first, end) line indexes, or undefined. */
function rootBlock(lines: string[], kind: string): { first: number; end: number } | undefined {
  const end = lines.indexOf(`export interface ${kind} {`);
  if (end < 0) return undefined;
  let first = end;
  while (first > 0 && lines[first - 1]?.trimStart().startsWith("//")) first--;
  return { first, end };
}

function hasStorageMarker(text: string | undefined, kind: string): boolean {
  if (text === undefined) return false;
  const lines = text.split("\n");
  const block = rootBlock(lines, kind);
  return (
    block !== undefined &&
    lines.slice(block.first, block.end).some((l) => l.trim() === STORAGE_VERSION_MARKER)
  );
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
    const lines = text.split("\n");
    const block = rootBlock(lines, r.kind);
    if (!block) return text;
    const root = lines.slice(block.first, block.end).findIndex((l) => l.trim() === ROOT_MARKER);
    if (root < 0) return text;
    lines.splice(block.first + root + 1, 0, STORAGE_VERSION_MARKER);
    added = true;
    return lines.join("\n");
  });
  return added;
}

function removeMarker(s: Scaffold, r: ResourceModel, version: string): void {
  s.edit(typesFile(r, version), (text) => {
    const lines = text.split("\n");
    const block = rootBlock(lines, r.kind);
    if (!block) return text;
    const at = lines.slice(block.first, block.end).findIndex((l) => l.trim() === STORAGE_VERSION_MARKER);
    if (at >= 0) lines.splice(block.first + at, 1);
    return lines.join("\n");
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
