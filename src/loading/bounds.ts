import { isAbsolute, relative } from "node:path";
import { KbtsError } from "../errors.js";

/**
 * Bounds on the work one `kbts manifests` / `kbts generate` run does, checked before the work starts:
 * what `--paths` may scan (the project, never the file system), and how deeply types may nest (the
 * TypeScript parser and the schema walker recurse, so a deeper file would end in a stack overflow
 * with no location).
 */

/** Levels of brackets in a file, and of object types in a schema, a run accepts. */
export const MAX_TYPE_DEPTH = 100;

const GLOB_CHARS = /[*?[\]{}!]/;

/**
 * Each `--paths` entry must be a non-empty path (directory, file or glob) inside the project: an
 * empty path, `/` or a path leaving the project would scan the whole file system. Absolute paths
 * inside the project are made relative to it.
 */
export function checkScanPaths(root: string, paths: string[], flag = "--paths"): string[] {
  return paths.map((raw) => {
    const path = raw.trim();
    const shown = JSON.stringify(raw);
    if (path === "") {
      throw new KbtsError(`${shown} is empty; it would scan the whole file system`, {
        where: flag,
        fix: `name directories inside the project, e.g. ${flag} api internal`,
      });
    }
    let rel = path;
    if (isAbsolute(path)) {
      rel = relative(root, path);
      if (path === "/" || rel === ".." || rel.startsWith("../") || isAbsolute(rel)) {
        throw new KbtsError(`${shown} is outside the project (${root})`, {
          where: flag,
          fix: `name directories inside the project, e.g. ${flag} api internal`,
        });
      }
      rel = rel === "" ? "." : rel;
    }
    if (
      rel
        .split("/")
        .some((segment) => segment === ".." || (GLOB_CHARS.test(segment) && segment.includes("..")))
    ) {
      throw new KbtsError(`${shown} leaves the project`, {
        where: flag,
        fix: `name directories inside the project (no '..'), e.g. ${flag} api internal`,
      });
    }
    return rel;
  });
}
