import { basename, dirname, relative, sep } from "node:path";
import { compareStrings } from "../compare.js";
import type { MarkerCollector } from "../markers/collect.js";
import { instancesOf, type MarkerInstance } from "../markers/registry.js";
import { groupName, objectRoot, packageOptional, skipType, versionName } from "./markers.js";
import { resolveTypeName } from "./type-names.js";
import { ts } from "./typescript.js";

/** A directory under api/ whose files carry a +groupName: one group/version. */
export interface ApiPackage {
  dir: string;
  group: string;
  version: string;
  files: ts.SourceFile[];
  optionalByDefault: boolean;
  kinds: RootKind[];
}

/** A root type: +kubebuilder:object:root=true and a `metadata: ObjectMeta` property. */
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
    for (const sf of pkgFiles) {
      for (const stmt of sf.statements) {
        if (!ts.isInterfaceDeclaration(stmt) && !ts.isTypeAliasDeclaration(stmt)) continue;
        const docs = collector.forNode(stmt);
        const root = docs.markers.get(objectRoot);
        if (!root?.value) continue;
        if (hasObjectMeta(stmt, checker)) pkg.kinds.push({ name: stmt.name.text, decl: stmt });
      }
    }
    out.push(pkg);
  }
  return out;
}

function hasObjectMeta(
  decl: ts.InterfaceDeclaration | ts.TypeAliasDeclaration,
  checker: ts.TypeChecker,
): boolean {
  const type = checker.getTypeAtLocation(decl.name);
  const meta = checker.getPropertyOfType(type, "metadata");
  const d = meta?.valueDeclaration ?? meta?.declarations?.[0];
  if (!d || !ts.isPropertySignature(d) || !d.type || !ts.isTypeReferenceNode(d.type)) return false;
  const target = resolveTypeName(checker, d.type.typeName);
  return target.name === "ObjectMeta";
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
