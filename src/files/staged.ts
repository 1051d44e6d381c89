import {
  type Dirent,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, isAbsolute, join, normalize, relative, sep } from "node:path";
import { compareStrings } from "../compare.js";
import { KbtsError } from "../errors.js";

/** What a file-system error code means, for messages that name the real cause. */
const CAUSES: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  EISDIR: "is a directory, where a file is written",
  ENOTDIR: "a parent of it is a file, not a directory",
  ENOENT: "no such file or directory",
  EEXIST: "already exists",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  ENAMETOOLONG: "file name too long",
  EMFILE: "too many open files",
  EBUSY: "busy",
  ENOTEMPTY: "is a directory that is not empty, where a file is written",
  EIO: "input/output error",
};

/** "config/rbac/role.yaml: read-only file system (EROFS)": the path and the real cause of an fs error. */
export function describeFsError(err: unknown, path: string): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code && CAUSES[code]) return `${path}: ${CAUSES[code]} (${code})`;
  if (code) return `${path}: ${code}`;
  return `${path}: ${err instanceof Error ? err.message : String(err)}`;
}

/** Temporary siblings kbts writes before renaming into place; stale ones are removed on the next run. */
const TEMP_SUFFIX = `.kbts-${process.pid}.tmp`;
const STALE_TEMP = /\.kbts-(?:tmp|\d+\.tmp)$/;
export const SKIP_DIRS = new Set(["node_modules", ".git", "dist"]);

/**
 * Removes temporary files a killed kbts run left in the project (`*.kbts-tmp`, `*.kbts-NNNN.tmp`).
 * Returns the paths removed, relative to root.
 */
export function removeStaleTemps(root: string): string[] {
  const removed: string[] = [];
  // A project is small; the bound keeps `kbts init` in a crowded directory from walking all of it.
  let budget = 5_000;
  const walk = (dir: string): void => {
    if (--budget < 0) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(full);
      } else if (STALE_TEMP.test(e.name)) {
        rmSync(full, { force: true });
        removed.push(relative(root, full));
      }
    }
  };
  walk(root);
  return removed;
}

export interface CommitHooks {
  /** Called before each file's temporary copy is written (tests make a chosen write fail). */
  beforeWrite?: (path: string) => void;
}

/**
 * Writes files (paths relative to root) all or nothing, synchronously, so a signal handler cannot run
 * in the middle. First every file goes to a temporary sibling (with its missing parent directories);
 * then each is renamed into place. A failure in either phase removes the temporaries, puts back the
 * files already replaced and removes the directories made: the tree is as it was. The error names
 * the file and the real cause.
 */
export function commitFiles(
  root: string,
  files: ReadonlyArray<{ path: string; content: string | Uint8Array }>,
  hooks: CommitHooks = {},
): void {
  const madeDirs: string[] = [];
  const temps: Array<{ tmp: string; file: string; path: string }> = [];
  const replaced: Array<{ file: string; previous: Buffer | undefined }> = [];
  let current = "";
  try {
    for (const f of files) {
      current = f.path;
      const file = join(root, f.path);
      makeParents(dirname(file), madeDirs);
      if (existsSync(file) && lstatSync(file).isDirectory()) {
        throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
      }
      hooks.beforeWrite?.(f.path);
      const tmp = `${file}${TEMP_SUFFIX}`;
      try {
        writeFileSync(tmp, f.content);
      } catch (err) {
        // A partly written temporary (no space left...) goes; a directory in its place is not ours.
        removeFile(tmp);
        throw err;
      }
      temps.push({ tmp, file, path: f.path });
    }
    pauseBeforeRename();
    for (const t of temps) {
      current = t.path;
      const previous = existsSync(t.file) ? readFileSync(t.file) : undefined;
      renameSync(t.tmp, t.file);
      replaced.push({ file: t.file, previous });
    }
  } catch (err) {
    for (const t of temps) rmSync(t.tmp, { force: true });
    for (const r of replaced.reverse()) {
      try {
        if (r.previous === undefined) rmSync(r.file, { force: true });
        else writeFileSync(r.file, r.previous);
      } catch {
        // keep restoring the rest: a partial restore is better than none
      }
    }
    for (const d of madeDirs.reverse()) {
      try {
        rmdirSync(d);
      } catch {
        // not empty (something else wrote there) or already gone
      }
    }
    throw new KbtsError(`writing failed, nothing was changed: ${describeFsError(err, current)}`, {
      where: current,
      fix: "fix the cause (permissions, a directory in the file's place, free space) and run the command again",
      cause: err,
    });
  }
}

/**
 * Test-only (e2e/signals.test.ts): with KBTS_TEST_PAUSE_BEFORE_RENAME=<file>, a commit whose
 * temporaries are all written says so on stderr and blocks until <file> exists, before its first
 * rename, so a test can deliver a signal while the write is half done. It blocks rather than awaits:
 * the commit stays one synchronous step, as it is without the variable.
 */
function pauseBeforeRename(): void {
  const go = process.env.KBTS_TEST_PAUSE_BEFORE_RENAME;
  if (!go) return;
  process.stderr.write(`kbts: test pause before rename, until ${go} exists\n`);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 60_000;
  while (!existsSync(go)) {
    if (Date.now() > deadline) throw new Error(`KBTS_TEST_PAUSE_BEFORE_RENAME: ${go} did not appear in 60 s`);
    Atomics.wait(sleeper, 0, 0, 5);
  }
}

function removeFile(path: string): void {
  try {
    if (lstatSync(path).isFile()) rmSync(path, { force: true });
  } catch {
    // already gone
  }
}

function makeParents(dir: string, made: string[]): void {
  if (existsSync(dir)) return;
  makeParents(dirname(dir), made);
  mkdirSync(dir);
  made.push(dir);
}

/**
 * A project tree seen through an in-memory layer. Scaffolds read and write here; nothing reaches the
 * disk until `flush()`, which writes every staged file and, if any write fails, puts the tree back
 * as it was (files restored, created files and directories removed). So a scaffold that fails
 * validation writes nothing, and one that fails while writing leaves no half-made project.
 */
export class StagedFS {
  /** Text, or bytes for files copied as they are (vendored tarballs). */
  private readonly staged = new Map<string, string | Uint8Array>();

  constructor(readonly root: string) {}

  /** Project-relative, forward-slash path; rejects paths that leave the project. */
  private key(path: string): string {
    const rel = normalize(path).split(sep).join("/");
    if (isAbsolute(path) || rel === ".." || rel.startsWith("../")) {
      throw new KbtsError(`refusing to write outside the project: ${path}`);
    }
    return rel;
  }

  exists(path: string): boolean {
    const key = this.key(path);
    return this.staged.has(key) || existsSync(join(this.root, key));
  }

  /** The staged content, else the file on disk, else undefined. */
  read(path: string): string | undefined {
    const key = this.key(path);
    const staged = this.staged.get(key);
    if (staged !== undefined)
      return typeof staged === "string" ? staged : Buffer.from(staged).toString("utf8");
    const file = join(this.root, key);
    if (!existsSync(file)) return undefined;
    try {
      return readFileSync(file, "utf8");
    } catch (err) {
      throw new KbtsError(`cannot read ${describeFsError(err, key)}`, {
        where: key,
        fix: "kbts reads this file to update it: make it a readable file again",
        cause: err,
      });
    }
  }

  write(path: string, content: string | Uint8Array): void {
    this.staged.set(this.key(path), content);
  }

  /** Staged files whose content differs from the disk, sorted by path. */
  changes(): Array<{ path: string; content: string | Uint8Array; created: boolean }> {
    const out: Array<{ path: string; content: string | Uint8Array; created: boolean }> = [];
    for (const [path, content] of [...this.staged].sort(([a], [b]) => compareStrings(a, b))) {
      const onDisk = this.onDisk(path);
      if (!onDisk?.equals(typeof content === "string" ? Buffer.from(content) : content))
        out.push({ path, content, created: onDisk === undefined });
    }
    return out;
  }

  /**
   * Writes every change (see commitFiles: all or nothing); returns the paths written.
   * `beforeWrite` lets tests make a chosen write fail.
   */
  flush(hooks: CommitHooks = {}): string[] {
    const changes = this.changes();
    commitFiles(this.root, changes, hooks);
    this.staged.clear();
    return changes.map((c) => c.path);
  }

  private onDisk(key: string): Buffer | undefined {
    const file = join(this.root, key);
    if (!existsSync(file)) return undefined;
    if (lstatSync(file).isDirectory()) {
      throw new KbtsError(`${key} is a directory, where kbts writes a file`, {
        where: key,
        fix: "move the directory away (or pass another name), then run the command again",
      });
    }
    return readFileSync(file);
  }

  /** For messages: a path relative to the project root. */
  display(path: string): string {
    return relative(this.root, join(this.root, this.key(path))) || ".";
  }
}
