import type { KubernetesObject } from "../api/meta.js";
import { manifestFiles as files, readDocuments as read, type SourcedDoc } from "../internal/manifests.js";
import { EnvtestError } from "./errors.js";

export type { SourcedDoc } from "../internal/manifests.js";

/**
 * Files named by paths: a file as is, a directory's .yaml/.yml/.json files (not recursive, sorted).
 * A missing path is an error when errorIfPathMissing, else skipped (as envtest).
 */
export function manifestFiles(paths: string[], what: string, errorIfPathMissing: boolean): string[] {
  return files(
    paths,
    errorIfPathMissing
      ? (p) =>
          new EnvtestError(`${what} path ${p} does not exist`, {
            fix: `create it (e.g. run \`kbts manifests\`) or fix the path`,
          })
      : undefined,
  );
}

/** Every non-empty document of a (multi-document) YAML or JSON file; a syntax error names file:line:col. */
export function readDocuments(file: string): SourcedDoc[] {
  return read(file, (message) => new EnvtestError(message));
}

/**
 * The Kubernetes objects of a YAML or JSON file (e.g. a config/samples file), for a test that needs
 * them as values: every document must be an object with apiVersion and kind.
 */
export function readObjects(file: string): KubernetesObject[] {
  return readDocuments(file).map(({ doc, where }) => {
    if (typeof doc.apiVersion !== "string" || typeof doc.kind !== "string") {
      throw new EnvtestError(`${where}: not a Kubernetes object (apiVersion and kind are required)`);
    }
    return doc as KubernetesObject;
  });
}
