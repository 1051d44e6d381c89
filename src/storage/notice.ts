import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type CustomResourceDefinition, isCrd } from "../crd/types.js";
import { readManifestObjects } from "../yaml/read.js";

/**
 * What `kbts manifests` says when a CRD it writes stores another version than the one on disk (a
 * `+kubebuilder:storageversion` moved by hand): objects already in a cluster stay encoded in the old
 * version until they are rewritten. The new CRD is the generator's object; the file it replaces was
 * written by someone (kbts, controller-gen, a hand) and is read with the shared YAML reader. The
 * manifests command loads this module only when a CRD file changes, so a run that changes none
 * loads no YAML parser.
 */

/** The version a CRD stores, or undefined. */
export function storageVersionOf(crd: CustomResourceDefinition): string | undefined {
  return crd.spec?.versions?.find((v) => v.storage)?.name;
}

/** The storage version of the (first) CRD in a manifests file's text, or undefined; `file` names it in errors. */
export function storageVersionOfCrd(text: string, file = "CRD"): string | undefined {
  const crd = readManifestObjects(text, file).find(isCrd);
  return crd ? storageVersionOf(crd) : undefined;
}

/** One line per generated CRD whose storage version differs from the file it replaces. */
export function storageVersionChanges(
  root: string,
  generated: { files: ReadonlyMap<string, string>; crds: ReadonlyMap<string, CustomResourceDefinition> },
): string[] {
  const out: string[] = [];
  for (const [path, crd] of generated.crds) {
    let current: string;
    try {
      current = readFileSync(join(root, path), "utf8");
    } catch {
      continue;
    }
    // An unchanged file stores what it stored (the usual case, and all of a cached run's files).
    if (current === generated.files.get(path)) continue;
    const next = storageVersionOf(crd);
    if (next === undefined) continue;
    let before: string | undefined;
    try {
      before = storageVersionOfCrd(current, path);
    } catch {
      // A file that is not valid YAML says nothing about what a cluster stored; it is replaced anyway.
      continue;
    }
    if (before === undefined || before === next) continue;
    out.push(
      `${crd.metadata.name}: the storage version changes from ${before} to ${next}. Objects a cluster stored as ${before} stay so until rewritten: once this CRD is installed and the operator serves /convert, run make migrate-storage`,
    );
  }
  return out;
}
