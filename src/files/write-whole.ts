import { renameSync, rmSync, writeFileSync } from "node:fs";

/**
 * Writes `path` whole or not at all: a reader meanwhile sees the old file or the new one, never part of
 * it. The temp file is this process's, so two writers at once each rename their own and the last wins
 * (one shared temp name made the second rename fail with ENOENT). On failure the temp file is removed
 * and the error thrown.
 */
export function writeFileWhole(path: string, data: string | NodeJS.ArrayBufferView): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
