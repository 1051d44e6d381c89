import { glob } from "tinyglobby";
import { KbtsError } from "../errors.js";
import { checkScanPaths } from "./bounds.js";

export const DEFAULT_PATHS = ["api/**/*.ts", "internal/**/*.ts"];
const IGNORE = ["**/node_modules/**", "**/dist/**", "**/*.test.ts", "**/*.d.ts"];

/**
 * The TypeScript files a run scans. Paths given by the user (`--paths`) must lie inside the project
 * and must match something: an empty match is an error, not an empty (and "up to date") run.
 * (Kept apart from the compiler, so the input-hash cache can list the files without loading it.)
 */
export async function findSourceFiles(root: string, paths?: string[]): Promise<string[]> {
  const given = paths === undefined ? DEFAULT_PATHS : checkScanPaths(root, paths);
  const patterns = given.map((p) =>
    p.endsWith(".ts") || p.includes("*") ? p : `${p.replace(/\/$/, "")}/**/*.ts`,
  );
  const found = await glob(patterns, { cwd: root, ignore: IGNORE, absolute: true, onlyFiles: true });
  if (paths !== undefined && found.length === 0) {
    throw new KbtsError(`${paths.map((p) => JSON.stringify(p)).join(" ")} matched no TypeScript files`, {
      where: "--paths",
      fix: "name directories or files of the project that hold .ts files (test and .d.ts files are skipped), e.g. --paths api",
    });
  }
  return found.sort();
}
