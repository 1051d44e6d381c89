import { isAbsolute, relative } from "node:path";
import type { ts } from "./typescript.js";

/** Relative paths already computed, by root then file (absolute ones: the answer does not depend on
 * the working directory): every marker's location asks again, ~10 ms of a cold `kbts manifests`. */
const relativeTo = new Map<string, Map<string, string>>();

/** A source file as errors name it: relative to the project root. */
export function sourcePath(root: string, fileName: string): string {
  if (!isAbsolute(root) || !isAbsolute(fileName)) return relative(root, fileName) || fileName;
  let byFile = relativeTo.get(root);
  if (!byFile) {
    byFile = new Map();
    relativeTo.set(root, byFile);
  }
  let path = byFile.get(fileName);
  if (path === undefined) {
    path = relative(root, fileName) || fileName;
    byFile.set(fileName, path);
  }
  return path;
}

/** Where a node starts, as errors name it: `file:line:col` (1-based), the file relative to `root`. */
export function nodeWhere(root: string, node: ts.Node): string {
  const sf = node.getSourceFile();
  const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  return `${sourcePath(root, sf.fileName)}:${line + 1}:${character + 1}`;
}
