import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MarkerWarning } from "../markers/parse.js";
import { commitFiles, removeStaleTemps } from "../scaffold/fs.js";
import { shortDiff } from "./diff.js";
import { generateManifests, type ManifestOptions } from "./generate.js";

export interface WriteOptions extends ManifestOptions {
  /** Compare with the files on disk and write nothing. */
  check?: boolean;
}

export interface WriteResult {
  /** Files (relative to root) that were written, or that are stale with --check. */
  changed: string[];
  unchanged: string[];
  /** With --check: a short diff per stale file. */
  diffs: string[];
  warnings: MarkerWarning[];
}

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Generates and then writes (or, with `check`, compares) every manifest. Generation fails before
 * anything is written; then all files are committed together (commitFiles): all of them or none.
 */
export async function writeManifests(opts: WriteOptions): Promise<WriteResult> {
  if (!opts.check) removeStaleTemps(opts.root);
  const { files, warnings } = await generateManifests(opts);
  const result: WriteResult = { changed: [], unchanged: [], diffs: [], warnings };
  const staged: Array<{ path: string; content: string }> = [];
  for (const [rel, content] of files) {
    const abs = join(opts.root, rel);
    const current = await readOrUndefined(abs);
    if (current === content) {
      result.unchanged.push(rel);
      continue;
    }
    result.changed.push(rel);
    if (opts.check) result.diffs.push(shortDiff(rel, current, content));
    else staged.push({ path: rel, content });
  }
  commitFiles(opts.root, staged);
  return result;
}
