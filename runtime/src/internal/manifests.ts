/**
 * The runtime's one reader of Kubernetes manifests: files named by paths, and the documents of a
 * multi-document YAML or JSON file, each located as file:line for error messages. envtest, the fake
 * client and the local webhook installer read CRDs and webhook configurations through it; each
 * caller builds its own error type (`fail`), so messages keep their callers' wording and fixes.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { parseAllDocuments } from "yaml";

/** One parsed document and where it came from, for error messages. */
export interface SourcedDoc {
  doc: Record<string, unknown>;
  /** `file:line` (the line the document's content starts on) */
  where: string;
}

/** Builds the caller's error for a message about its input. */
export type Fail = (message: string) => Error;

const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/**
 * Files named by paths: a file as is, a directory's .yaml/.yml/.json files (not recursive, sorted).
 * A missing path is the error `missing` builds, or skipped when there is no `missing`.
 */
export function manifestFiles(paths: string[], missing?: (path: string) => Error): string[] {
  const files: string[] = [];
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      if (!missing) continue;
      throw missing(p);
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

/** Every non-empty document of a (multi-document) YAML or JSON file; see parseDocuments. */
export function readDocuments(file: string, fail: Fail = (m) => new Error(m)): SourcedDoc[] {
  return parseDocuments(readFileSync(file, "utf8"), file, fail);
}

/**
 * Every non-empty document of a (multi-document) YAML or JSON text that `source` names (a file): a
 * syntax error names source:line:col, a document that is not an object source:line.
 */
export function parseDocuments(text: string, source: string, fail: Fail = (m) => new Error(m)): SourcedDoc[] {
  const out: SourcedDoc[] = [];
  for (const doc of parseAllDocuments(text)) {
    const err = doc.errors[0];
    if (err) {
      const pos = err.linePos?.[0];
      const loc = pos ? `${source}:${pos.line}:${pos.col}` : source;
      throw fail(`${loc}: invalid YAML: ${err.message.split("\n")[0]}`);
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    const line = doc.contents?.range ? lineOf(text, doc.contents.range[0]) : 1;
    if (typeof value !== "object" || Array.isArray(value)) {
      throw fail(
        `${source}:${line}: expected a Kubernetes object, found ${Array.isArray(value) ? "a list" : typeof value}`,
      );
    }
    out.push({ doc: value as Record<string, unknown>, where: `${source}:${line}` });
  }
  return out;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
