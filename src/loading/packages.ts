import { basename, dirname, relative, sep } from "node:path";
import { compareStrings } from "../compare.js";
import { KbtsError } from "../errors.js";
import type { MarkerCollector } from "../markers/collect.js";
import { formatLocation, instancesOf, type MarkerInstance } from "../markers/registry.js";
import { ts } from "../ts/typescript.js";
import { groupName, objectRoot, packageOptional, skipType, versionName } from "./markers.js";
import { resolveTypeName } from "./type-names.js";

/** A directory under api/ whose files carry a +groupName: one group/version. */
export interface ApiPackage {
  dir: string;
  group: string;
  version: string;
  files: ts.SourceFile[];
  optionalByDefault: boolean;
  kinds: RootKind[];
}

/**
 * A kind, found as controller-gen finds them: a type with `apiVersion`, `kind` and `metadata: ObjectMeta`
 * (Go's embedded TypeMeta and ObjectMeta), or one with `metadata: ObjectMeta` and
 * +kubebuilder:object:root=true. The marker on a type that has no ObjectMeta is refused.
 */
export interface RootKind {
  name: string;
  decl: ts.InterfaceDeclaration | ts.TypeAliasDeclaration;
}

const isApiFile = (root: string, file: string) => relative(root, file).split(sep)[0] === "api";

export function findApiPackages(
  root: string,
  files: ts.SourceFile[],
  collector: MarkerCollector,
  checker: ts.TypeChecker,
): ApiPackage[] {
  const byDir = new Map<string, ts.SourceFile[]>();
  for (const sf of files) {
    if (!isApiFile(root, sf.fileName)) continue;
    const dir = dirname(sf.fileName);
    byDir.set(dir, [...(byDir.get(dir) ?? []), sf]);
  }
  const out: ApiPackage[] = [];
  for (const [dir, pkgFiles] of [...byDir].sort(([a], [b]) => compareStrings(a, b))) {
    const markers: MarkerInstance[] = pkgFiles.flatMap((sf) => collector.packageMarkers(sf));
    const group = instancesOf(markers, groupName)[0];
    if (!group) {
      warnIfKindsWithoutGroup(root, dir, pkgFiles, collector);
      continue;
    }
    if (markers.some((m) => m.def === skipType)) continue;
    const version = instancesOf(markers, versionName)[0]?.value ?? basename(dir);
    const pkg: ApiPackage = {
      dir,
      group: group.value,
      version,
      files: pkgFiles,
      optionalByDefault: markers.some((m) => m.def === packageOptional),
      kinds: [],
    };
    const misplaced: { decl: TypeDecl; marker: MarkerInstance<boolean> }[] = [];
    const unmarked: TypeDecl[] = [];
    for (const sf of pkgFiles) {
      for (const stmt of sf.statements) {
        if (!ts.isInterfaceDeclaration(stmt) && !ts.isTypeAliasDeclaration(stmt)) continue;
        const docs = collector.forNode(stmt);
        const root = docs.markers.get(objectRoot);
        const meta = metadataType(stmt, checker);
        if (!root?.value) {
          if (meta !== "ObjectMeta") continue;
          unmarked.push(stmt);
          // controller-gen's rule: embedded TypeMeta and ObjectMeta make a kind, marker or not.
          if (hasTypeMeta(stmt, checker)) pkg.kinds.push({ name: stmt.name.text, decl: stmt });
          continue;
        }
        if (meta === "ObjectMeta") pkg.kinds.push({ name: stmt.name.text, decl: stmt });
        else if (meta !== "ListMeta") misplaced.push({ decl: stmt, marker: root });
      }
    }
    for (const { decl, marker } of misplaced) collector.errors.push(notAKind(decl, marker, unmarked));
    out.push(pkg);
  }
  return out;
}

type TypeDecl = ts.InterfaceDeclaration | ts.TypeAliasDeclaration;

/** Whether a type declares `apiVersion` and `kind` (Go's embedded metav1.TypeMeta). */
function hasTypeMeta(decl: TypeDecl, checker: ts.TypeChecker): boolean {
  const type = checker.getTypeAtLocation(decl.name);
  return (
    checker.getPropertyOfType(type, "apiVersion") !== undefined &&
    checker.getPropertyOfType(type, "kind") !== undefined
  );
}

/** The name of the type of a declaration's `metadata` property (ObjectMeta for a kind, ListMeta for its List). */
function metadataType(decl: TypeDecl, checker: ts.TypeChecker): string | undefined {
  const type = checker.getTypeAtLocation(decl.name);
  const meta = checker.getPropertyOfType(type, "metadata");
  const d = meta?.valueDeclaration ?? meta?.declarations?.[0];
  if (!d || !ts.isPropertySignature(d) || !d.type || !ts.isTypeReferenceNode(d.type)) return undefined;
  return resolveTypeName(checker, d.type.typeName).name;
}

/**
 * A root marker on a type with neither `metadata: ObjectMeta` nor `metadata: ListMeta`: no CRD could
 * come of it. controller-gen finds kinds by their embedded TypeMeta and ObjectMeta and ignores the
 * marker (it only asks deepcopy for runtime.Object); kbts needs both, so a marker on the wrong type
 * would make no CRD at all. Names the package's types that have ObjectMeta but no marker.
 */
function notAKind(decl: TypeDecl, marker: MarkerInstance<boolean>, unmarked: TypeDecl[]): KbtsError {
  const name = decl.name.text;
  const others = unmarked.map((d) => d.name.text);
  const hint =
    others.length > 0
      ? `; ${others.join(", ")} ${others.length === 1 ? "has" : "have"} metadata: ObjectMeta but no +kubebuilder:object:root=true: did the marker mean ${others.join(" or ")}?`
      : "";
  return new KbtsError(
    `+kubebuilder:object:root=true is on ${name}, which cannot be a kind: it has no metadata: ObjectMeta (nor ListMeta, for a kind's List)${hint}`,
    {
      where: formatLocation(marker.loc),
      fix:
        others.length > 0
          ? `move the marker from ${name} to ${others[0]}'s marker block (a kind is the type with apiVersion, kind and metadata: ObjectMeta)`
          : `give ${name} apiVersion?: string, kind?: string and metadata?: ObjectMeta, or remove the marker`,
    },
  );
}

/** Root types in a directory without +groupName get no CRD (as with controller-gen); say so. */
function warnIfKindsWithoutGroup(
  root: string,
  dir: string,
  files: ts.SourceFile[],
  collector: MarkerCollector,
): void {
  for (const sf of files) {
    for (const stmt of sf.statements) {
      if (!ts.isInterfaceDeclaration(stmt) && !ts.isTypeAliasDeclaration(stmt)) continue;
      const rootMarker = collector.forNode(stmt).markers.get(objectRoot);
      if (!rootMarker?.value || stmt.name.text.endsWith("List")) continue;
      collector.warnings.push({
        where: `${rootMarker.loc.file}:${rootMarker.loc.line}:${rootMarker.loc.col}`,
        message: `${stmt.name.text} is a root type, but ${relative(root, dir) || "."} has no +groupName, so no CRD is generated for it (add // +groupName=<group> to groupversion_info.ts)`,
      });
      return;
    }
  }
}
