/**
 * `shared/`, the folder of public material tests read in place (`shared/oracles/`: real CRDs,
 * controller-gen's output for controller-tools' corpus), never copied into the project. CI lays it
 * beside its clone; elsewhere it is found beside the checkout this one was made from.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";

function git(repo: string, args: string[]): string | undefined {
  try {
    return execFileSync("git", args, {
      cwd: repo,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * `<repo>/../shared` when it exists; else the same beside the main checkout of a git worktree, or
 * beside the local repository this one was cloned from (`git clone . /tmp/k`, as the README's first-run
 * check does), following clones of clones. Undefined when none has it.
 */
export function sharedDir(repo: string, seen = new Set<string>()): string | undefined {
  if (seen.has(repo)) return undefined;
  seen.add(repo);
  const beside = resolve(repo, "../shared");
  if (existsSync(resolve(beside, "oracles"))) return beside;
  const common = git(repo, ["rev-parse", "--path-format=absolute", "--git-common-dir"]);
  if (common && existsSync(resolve(dirname(common), "../shared/oracles")))
    return resolve(dirname(common), "../shared");
  const origin = git(repo, ["remote", "get-url", "origin"]);
  if (origin && isAbsolute(origin) && existsSync(origin)) return sharedDir(origin, seen);
  return undefined;
}
