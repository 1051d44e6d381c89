import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * What `kbts manifests` says when a CRD it writes stores another version than the one on disk (a
 * `+kubebuilder:storageversion` moved by hand): objects already in a cluster stay encoded in the old
 * version until they are rewritten. Reads the generated YAML line by line (the emitter's own layout),
 * so the manifests command loads no YAML parser for it.
 */

/** The storage version of a CRD as kbts and controller-gen emit it, or undefined. */
export function storageVersionOfCrd(text: string): string | undefined {
  if (!/^kind: CustomResourceDefinition$/m.test(text)) return undefined;
  let current: string | undefined;
  for (const line of text.split("\n")) {
    const name = /^ {2}- name: (\S+)$|^ {4}name: (\S+)$/.exec(line);
    if (name) current = name[1] ?? name[2];
    if (/^ {4}storage: true$/.test(line)) return current;
  }
  return undefined;
}

/** One line per generated CRD whose storage version differs from the file it replaces. */
export function storageVersionChanges(root: string, files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [path, text] of files) {
    let current: string;
    try {
      current = readFileSync(join(root, path), "utf8");
    } catch {
      continue;
    }
    // An unchanged file stores what it stored (the usual case, and all of a cached run's files).
    if (current === text) continue;
    const next = storageVersionOfCrd(text);
    if (next === undefined) continue;
    const before = storageVersionOfCrd(current);
    if (before === undefined || before === next) continue;
    const crd = /^ {2}name: (\S+)$/m.exec(text)?.[1] ?? path;
    out.push(
      `${crd}: the storage version changes from ${before} to ${next}. Objects a cluster stored as ${before} stay so until rewritten: once this CRD is installed and the operator serves /convert, run make migrate-storage`,
    );
  }
  return out;
}
