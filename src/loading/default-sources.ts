import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The files the default --paths (api/**\/*.ts internal/**\/*.ts, sources.ts) match, listed by a plain
 * directory walk so a cached `kbts manifests` need not load the glob library. The walk keeps every .ts
 * file the glob could match (never fewer, so the cache's file-set check never misses an added file) and
 * gives up (undefined: glob instead) on anything the two might treat differently: a symbolic link, a
 * name starting with a dot, an unreadable directory.
 */
export function listDefaultSourceFiles(root: string): string[] | undefined {
  const found: string[] = [];
  const walk = (dir: string, top: boolean): boolean => {
    let entries: Dirent[];
    try {
      if (top && lstatSync(dir).isSymbolicLink()) return false;
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      // No api/ or internal/ at all: the glob matches nothing there either.
      return top && (err as NodeJS.ErrnoException).code === "ENOENT";
    }
    for (const e of entries) {
      if (e.name.startsWith(".") || e.isSymbolicLink()) return false;
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === "node_modules" || e.name === "dist") continue;
        if (!walk(path, false)) return false;
      } else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts")) {
        found.push(path);
      }
    }
    return true;
  };
  for (const base of ["api", "internal"]) if (!walk(join(root, base), true)) return undefined;
  return found.sort();
}
