import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { KbtsError } from "../errors.js";

const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Runs git and returns its output. Synchronous on purpose: a signal is handled between git commands,
 * never while one is writing the worktree (so it is always whole when removed).
 */
function git(cwd: string, args: string[]): string {
  return execFileSync("git", ["-C", cwd, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
  }).trim();
}

/** The project as it was at a git ref: its directory in a temporary worktree. */
export interface CheckoutAtRef {
  /** The commit the ref names. */
  commit: string;
  /** The project's directory inside the worktree (the same place relative to the repository). */
  root: string;
  /** The project did not exist at that commit. */
  missing: boolean;
}

/**
 * Runs `use` on a temporary `git worktree` of the project's repository at `ref`, then removes the
 * worktree: after success, after an error, and when the process is interrupted (SIGINT, SIGTERM,
 * SIGHUP) or exits meanwhile, so no worktree or branch is left behind in the user's repository.
 */
export async function withCheckoutAt<T>(
  projectRoot: string,
  ref: string,
  use: (checkout: CheckoutAtRef) => Promise<T>,
): Promise<T> {
  let top: string;
  try {
    top = git(projectRoot, ["rev-parse", "--show-toplevel"]);
  } catch {
    throw new KbtsError(`${projectRoot} is not in a git repository, so there is no ${ref} to compare with`, {
      where: "--breaking-since",
      fix: "run it in a project under git (git init, then commit the API types), or drop --breaking-since",
    });
  }
  let commit: string;
  try {
    commit = git(top, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  } catch {
    throw new KbtsError(`git ref "${ref}" does not exist in ${top}`, {
      where: "--breaking-since",
      fix: "name a branch, tag or commit of this repository (fetch it first if it is remote: git fetch origin main)",
    });
  }
  const prefix = relative(realpathSync(top), realpathSync(projectRoot));
  const dir = mkdtempSync(join(tmpdir(), "kbts-breaking-"));
  const tree = join(dir, "tree");
  let removed = false;
  const remove = (): void => {
    if (removed) return;
    removed = true;
    try {
      // Twice forced: also when git was stopped half-way and left the worktree locked.
      git(top, ["worktree", "remove", "--force", "--force", tree]);
    } catch {
      // Not added yet, or already gone: prune forgets it either way.
    }
    rmSync(dir, { recursive: true, force: true });
    try {
      git(top, ["worktree", "prune"]);
    } catch {
      // The repository itself went away: nothing to prune.
    }
  };
  // The CLI's signal handlers end the process with process.exit: "exit" runs synchronously then.
  process.on("exit", remove);
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    process.exit(128 + (constants.signals[signal] ?? 0));
  };
  const own = SIGNALS.filter((s) => process.listenerCount(s) === 0);
  for (const s of own) process.once(s, onSignal);
  try {
    try {
      git(top, ["worktree", "add", "--detach", "--quiet", tree, commit]);
    } catch (err) {
      throw new KbtsError(`could not check out ${ref} into a temporary worktree: ${gitMessage(err)}`, {
        where: "--breaking-since",
        fix: "check `git worktree list` and that the repository is not locked, then run it again",
      });
    }
    const root = join(tree, prefix);
    return await use({ commit, root, missing: !existsSync(root) });
  } finally {
    for (const s of own) process.removeListener(s, onSignal);
    process.removeListener("exit", remove);
    remove();
  }
}

function gitMessage(err: unknown): string {
  const stderr = (err as { stderr?: string | Buffer }).stderr;
  return (stderr?.toString() ?? String(err)).trim().split("\n")[0] ?? "";
}
