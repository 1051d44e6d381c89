import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { parseAllDocuments } from "yaml";
import type { KubernetesObject } from "../api/meta.js";
import { EnvtestError } from "./errors.js";

/** One parsed document and where it came from, for error messages. */
export interface SourcedDoc {
  doc: Record<string, unknown>;
  /** `file` or `file:line` */
  where: string;
}

const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/**
 * Files named by paths: a file as is, a directory's .yaml/.yml/.json files (not recursive, sorted).
 * A missing path is an error when errorIfPathMissing, else skipped (as envtest).
 */
export function manifestFiles(paths: string[], what: string, errorIfPathMissing: boolean): string[] {
  const files: string[] = [];
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      if (!errorIfPathMissing) continue;
      throw new EnvtestError(`${what} path ${p} does not exist`, {
        fix: `create it (e.g. run \`kbts manifests\`) or fix the path`,
      });
    }
    if (!isDir) {
      files.push(p);
      continue;
    }
    for (const entry of readdirSync(p).sort()) {
      const file = join(p, entry);
      if (EXTENSIONS.has(extname(entry)) && statSync(file).isFile()) files.push(file);
    }
  }
  return files;
}

/** Every non-empty document of a (multi-document) YAML or JSON file; a syntax error names file:line:col. */
export function readDocuments(file: string): SourcedDoc[] {
  const text = readFileSync(file, "utf8");
  const out: SourcedDoc[] = [];
  for (const doc of parseAllDocuments(text)) {
    const err = doc.errors[0];
    if (err) {
      const pos = err.linePos?.[0];
      const loc = pos ? `${file}:${pos.line}:${pos.col}` : file;
      throw new EnvtestError(`${loc}: invalid YAML: ${err.message.split("\n")[0]}`);
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    const line = doc.contents?.range ? lineOf(text, doc.contents.range[0]) : 1;
    if (typeof value !== "object" || Array.isArray(value)) {
      throw new EnvtestError(
        `${file}:${line}: expected a Kubernetes object, found ${Array.isArray(value) ? "a list" : typeof value}`,
      );
    }
    out.push({ doc: value as Record<string, unknown>, where: `${file}:${line}` });
  }
  return out;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
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
