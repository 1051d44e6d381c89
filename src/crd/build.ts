import { compareStrings } from "../compare.js";
import { KbtsError } from "../errors.js";
import type { ApiPackage, RootKind } from "../loading/packages.js";
import type { MarkerCollector } from "../markers/collect.js";
import { formatLocation } from "../markers/registry.js";
import type { SchemaWalker } from "../schema/walker.js";
import { nodeWhere } from "../ts/where.js";
import { hasCrdEffect, storageVersion } from "./markers/crd.js";
import { pluralize } from "./plural.js";
import type { CustomResourceDefinition } from "./types.js";

export interface BuiltCrd {
  crd: CustomResourceDefinition;
  /** Each served version's root declaration, for checks against the resolved types. */
  versions: Map<string, RootKind>;
}

/**
 * One CRD per group/kind over every API package of that group (controller-gen's NeedCRDFor):
 * names and scope defaults, one version per package, type markers applied for their version,
 * versions sorted by name, exactly one storage version.
 */
export function buildCrds(
  root: string,
  packages: ApiPackage[],
  walker: SchemaWalker,
  collector: MarkerCollector,
  annotations: Record<string, string>,
  errors: KbtsError[],
): BuiltCrd[] {
  const kinds = new Map<
    string,
    { group: string; kind: string; entries: { pkg: ApiPackage; kind: RootKind }[] }
  >();
  for (const pkg of packages) {
    for (const k of pkg.kinds) {
      const id = `${k.name}.${pkg.group}`;
      let e = kinds.get(id);
      if (!e) {
        e = { group: pkg.group, kind: k.name, entries: [] };
        kinds.set(id, e);
      }
      e.entries.push({ pkg, kind: k });
    }
  }
  const out: BuiltCrd[] = [];
  for (const id of [...kinds.keys()].sort(compareStrings)) {
    const { group, kind, entries } = kinds.get(id) as {
      group: string;
      kind: string;
      entries: { pkg: ApiPackage; kind: RootKind }[];
    };
    const plural = pluralize(kind);
    const crd: CustomResourceDefinition = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: `${plural}.${group}`, annotations: { ...annotations } },
      spec: {
        group,
        names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
        scope: "Namespaced",
        versions: [],
      },
    };
    const versions = new Map<string, RootKind>();
    for (const { pkg, kind: rk } of entries) {
      crd.spec.versions.push({
        name: pkg.version,
        served: true,
        storage: false,
        schema: { openAPIV3Schema: walker.kindSchema(rk.decl) },
      });
      versions.set(pkg.version, rk);
    }
    for (const { pkg, kind: rk } of entries) {
      for (const m of collector.forNode(rk.decl).markers.all) {
        const def = m.def;
        if (!hasCrdEffect(def)) continue;
        try {
          def.crd(crd, pkg.version, m.value);
        } catch (err) {
          errors.push(
            new KbtsError(`+${m.def.name}: ${(err as Error).message}`, { where: formatLocation(m.loc) }),
          );
        }
      }
    }
    crd.metadata.name = `${crd.spec.names.plural}.${group}`;
    if (crd.spec.versions.length === 0) continue;
    crd.spec.versions.sort((a, b) => compareStrings(a.name, b.name));
    if (crd.spec.versions.length === 1)
      (crd.spec.versions[0] as (typeof crd.spec.versions)[number]).storage = true;
    checkVersions(root, crd, entries, collector, errors);
    out.push({ crd, versions });
  }
  return out;
}

function checkVersions(
  root: string,
  crd: CustomResourceDefinition,
  entries: { pkg: ApiPackage; kind: RootKind }[],
  collector: MarkerCollector,
  errors: KbtsError[],
): void {
  const gk = `${crd.spec.names.kind}.${crd.spec.group}`;
  const storage = crd.spec.versions.filter((v) => v.storage).map((v) => v.name);
  const all = crd.spec.versions.map((v) => v.name).join(", ");
  const first = entries[0]?.kind.decl;
  if (storage.length === 0 && first) {
    errors.push(
      new KbtsError(`CRD for ${gk} has no storage version (versions ${all})`, {
        where: nodeWhere(root, first.name),
        fix: "mark exactly one version's type with // +kubebuilder:storageversion",
      }),
    );
  }
  if (storage.length > 1) {
    const marks = entries.flatMap((e) => collector.forNode(e.kind.decl).markers.list(storageVersion));
    const last = marks[marks.length - 1];
    errors.push(
      new KbtsError(`CRD for ${gk} has more than one storage version: ${storage.join(", ")}`, {
        ...(last ? { where: formatLocation(last.loc) } : {}),
        fix: "keep // +kubebuilder:storageversion on exactly one version",
      }),
    );
  }
  if (!crd.spec.versions.some((v) => v.served)) {
    errors.push(new KbtsError(`CRD for ${gk} with version(s) ${all} does not serve any version`));
  }
}
