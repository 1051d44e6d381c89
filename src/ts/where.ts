import { relative } from "node:path";
import type { ts } from "./typescript.js";

/** A source file as errors name it: relative to the project root. */
export const sourcePath = (root: string, fileName: string): string => relative(root, fileName) || fileName;

/** Where a node starts, as errors name it: `file:line:col` (1-based), the file relative to `root`. */
export function nodeWhere(root: string, node: ts.Node): string {
  const sf = node.getSourceFile();
  const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  return `${sourcePath(root, sf.fileName)}:${line + 1}:${character + 1}`;
}
