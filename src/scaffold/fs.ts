import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, relative, sep } from "node:path";
import { KbtsError } from "../errors.js";

/**
 * A project tree seen through an in-memory layer. Scaffolds read and write here; nothing reaches the
 * disk until `flush()`, which writes every staged file and, if any write fails, puts the tree back
 * as it was (files restored, created files and directories removed). So a scaffold that fails
 * validation writes nothing, and one that fails while writing leaves no half-made project.
 */
export class StagedFS {
  private readonly staged = new Map<string, string>();

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
    if (staged !== undefined) return staged;
    const file = join(this.root, key);
    return existsSync(file) ? readFileSync(file, "utf8") : undefined;
  }

  write(path: string, content: string): void {
    this.staged.set(this.key(path), content);
  }

  /** Staged files whose content differs from the disk, sorted by path. */
  changes(): Array<{ path: string; content: string; created: boolean }> {
    const out: Array<{ path: string; content: string; created: boolean }> = [];
    for (const [path, content] of [...this.staged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const file = join(this.root, path);
      const onDisk = existsSync(file) ? readFileSync(file, "utf8") : undefined;
      if (onDisk !== content) out.push({ path, content, created: onDisk === undefined });
    }
    return out;
  }

  /**
   * Writes every change; returns the paths written. Each file goes to a temporary sibling first and
   * is renamed into place; on any failure all earlier writes are undone.
   */
  flush(hooks: { beforeWrite?: (path: string) => void } = {}): string[] {
    const changes = this.changes();
    const undo: Array<() => void> = [];
    try {
      for (const change of changes) {
        const file = join(this.root, change.path);
        this.makeParents(dirname(file), undo);
        const previous = existsSync(file) ? readFileSync(file) : undefined;
        hooks.beforeWrite?.(change.path);
        const tmp = `${file}.kbts-tmp`;
        writeFileSync(tmp, change.content);
        try {
          renameSync(tmp, file);
        } catch (err) {
          rmSync(tmp, { force: true });
          throw err;
        }
        undo.push(() =>
          previous === undefined ? rmSync(file, { force: true }) : writeFileSync(file, previous),
        );
      }
    } catch (err) {
      for (const step of undo.reverse()) {
        try {
          step();
        } catch {
          // keep restoring the rest: a partial restore is better than none
        }
      }
      const where = err instanceof Error ? err.message : String(err);
      throw new KbtsError(`writing the project failed, nothing was changed: ${where}`, { cause: err });
    }
    this.staged.clear();
    return changes.map((c) => c.path);
  }

  private makeParents(dir: string, undo: Array<() => void>): void {
    if (existsSync(dir)) return;
    this.makeParents(dirname(dir), undo);
    mkdirSync(dir);
    undo.push(() => rmdirSync(dir));
  }

  /** For messages: a path relative to the project root. */
  display(path: string): string {
    return relative(this.root, join(this.root, this.key(path))) || ".";
  }
}
