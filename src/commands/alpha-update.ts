/**
 * `kbts alpha update`: Kubebuilder's three-way upgrade of a project to newer templates. Three trees
 * are committed in the user's git repository:
 * - ancestor: the project re-scaffolded from PROJECT by the kbts that made it (PROJECT's cliVersion,
 *   or --from-version), run through npm (`npm exec --package kbts@<version> -- kbts alpha generate`);
 * - original: the user's project as --from-branch holds it, on top of the ancestor;
 * - upgrade: the project re-scaffolded by the new kbts (--to-version, default this one), on top of
 *   the ancestor.
 * git merges original into upgrade with the ancestor as base, so the user's code and the new
 * templates meet where they differ; the result goes on the output branch, as one commit on top of
 * --from-branch (or, with --show-commits, the merge commit itself). Conflicts stop the update on that
 * branch with the merge in progress, or, with --force, are committed with their markers and named in
 * the commit message.
 *
 * Unlike Kubebuilder, the three trees are built aside (temporary directories, a temporary index and
 * `git merge-tree`), so the user's working tree is only touched at the end, to check out the result.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { KbtsError } from "../errors.js";
import { PROJECT_FILE, parseProject } from "../project/config.js";
import { kbtsVersion } from "../version.js";
import { runAlphaGenerate } from "./alpha-generate.js";

export interface AlphaUpdateFlags {
  /** The kbts release that made the project; default: PROJECT's cliVersion. */
  fromVersion?: string;
  /** The kbts release to update to; default: this kbts. */
  toVersion?: string;
  /** The branch holding the project; default: main, or the current branch when there is no main. */
  fromBranch?: string;
  /** Commit conflicts with their markers instead of stopping; replace an existing output branch. */
  force?: boolean;
  /** Keep the merge commit and its history instead of one squashed commit. */
  showCommits?: boolean;
  /** Paths (relative to the project) taken as --from-branch has them, in squash mode. */
  restorePath?: string[];
  outputBranch?: string;
  push?: boolean;
  mergeMessage?: string;
  conflictMessage?: string;
  openGhIssue?: boolean;
  /** `key=value` settings for every git command; "disable" drops the defaults. */
  gitConfig?: string[];
  /** Progress lines, as the update goes (the CLI prints them). */
  log?: (line: string) => void;
}

export interface AlphaUpdateResult {
  written: string[];
  next: string;
  /** The output branch (undefined when there was nothing to update). */
  outputBranch?: string;
  /** Files committed with conflict markers (--force). */
  conflicts: string[];
}

/** Re-scaffolds the project in `input` into `output` with kbts `version`. */
export type Scaffolder = (version: string, input: string, output: string) => Promise<void>;

const DEFAULT_BRANCH = "main";
/** Kubebuilder's defaults, so renamed files are followed across large scaffolds. */
const DEFAULT_GIT_CONFIG = [
  "merge.renameLimit=999999",
  "diff.renameLimit=999999",
  "merge.conflictStyle=merge",
];
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
/** Where the temporary commits live while the update runs: not branches, so no name of the user's is taken. */
const TEMP_REFS = "refs/kbts-update/";

export const mergeMessage = (from: string, to: string): string =>
  `chore(kbts): update scaffold ${from} -> ${to}`;
export const conflictMessage = (from: string, to: string): string =>
  `chore(kbts): (:warning: manual conflict resolution required) update scaffold ${from} -> ${to}`;
export const outputBranchName = (from: string, to: string): string => `kbts-update-from-${from}-to-${to}`;

/** The git settings of every git command: the defaults (unless "disable" is given) and then the user's. */
export function gitConfigOf(values: string[] = []): string[] {
  for (const v of values) {
    if (v !== "disable" && !/^[^=\s]+=/.test(v)) {
      throw new KbtsError(`--git-config ${JSON.stringify(v)} is not key=value`, {
        where: "--git-config",
        fix: "give a git setting such as merge.conflictStyle=diff3, or disable to drop kbts' defaults",
      });
    }
  }
  const own = values.filter((v) => v !== "disable");
  return values.includes("disable") ? own : [...DEFAULT_GIT_CONFIG, ...own];
}

/** A kbts version as npm spells it: 0.2.0 (a leading v, Kubebuilder's spelling, is dropped). */
export function normalizeVersion(value: string, where: string): string {
  const version = value.trim().replace(/^v(?=\d)/, "");
  if (!SEMVER.test(version)) {
    throw new KbtsError(`${JSON.stringify(value)} is not a kbts version`, {
      where,
      fix: "give a released kbts version, e.g. 0.2.0 (npm view kbts versions lists them)",
    });
  }
  return version;
}

interface GitResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** git with the update's settings (-c key=value) in one directory. */
class Git {
  constructor(
    readonly cwd: string,
    private readonly config: string[],
  ) {}

  run(
    args: string[],
    options: { env?: Record<string, string>; cwd?: string; input?: string } = {},
  ): GitResult {
    const result = spawnSync("git", [...this.config.flatMap((c) => ["-c", c]), ...args], {
      cwd: options.cwd ?? this.cwd,
      encoding: "utf8",
      input: options.input,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", ...options.env },
      maxBuffer: 256 * 1024 * 1024,
    });
    if (result.error) {
      throw new KbtsError(`cannot run git: ${result.error.message}`, {
        fix: "install git and put it on PATH",
      });
    }
    return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
  }

  /** Runs git and returns its trimmed output; a failure is an error with git's own message. */
  out(args: string[], options: { env?: Record<string, string>; cwd?: string; input?: string } = {}): string {
    const r = this.run(args, options);
    if (r.status !== 0) {
      throw new KbtsError(`git ${args.join(" ")} failed: ${(r.stderr || r.stdout).trim()}`, {
        where: "kbts alpha update",
      });
    }
    return r.stdout.trim();
  }

  ok(args: string[]): boolean {
    return this.run(args).status === 0;
  }
}

/** The npm command, as the platform names it. */
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

interface NpmResult {
  code: number;
  output: string;
}

function npm(args: string[], cwd: string): Promise<NpmResult> {
  return new Promise((resolve) => {
    const child = spawn(NPM, args, {
      cwd,
      env: { ...process.env, npm_config_yes: "true", npm_config_update_notifier: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.on("error", (err) => resolve({ code: 127, output: `cannot run npm: ${err.message}` }));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

const tail = (text: string, lines = 30): string => text.trimEnd().split("\n").slice(-lines).join("\n");

/** npm's words for a package or version the registry does not have. */
const NOT_ON_REGISTRY = /E404|ETARGET|No matching version/;

/** Fails with a clear error when kbts `version` is not on the npm registry npm is configured with. */
async function checkPublished(version: string, where: string, cwd: string): Promise<void> {
  const r = await npm(["view", `kbts@${version}`, "version", "--json"], cwd);
  const unknown = r.code === 0 ? r.output.trim() === "" : NOT_ON_REGISTRY.test(r.output);
  if (unknown) {
    const registry = (await npm(["config", "get", "registry"], cwd)).output.trim();
    throw new KbtsError(`kbts ${version} is not on the npm registry ${registry}`, {
      where,
      fix: "give a released kbts version (npm view kbts versions lists them)",
    });
  }
  if (r.code !== 0) {
    throw new KbtsError(`npm view kbts@${version} failed (exit ${r.code}):\n${tail(r.output)}`, {
      where,
      fix: "fix what npm reports above (registry, network, npm login), then run kbts alpha update again",
    });
  }
}

/**
 * The default scaffolder: this kbts' alpha generate for its own version, else that kbts release's,
 * run by npm in a directory of its own (so the project's node_modules/.bin/kbts is never the one run).
 */
function npmScaffolder(work: string, project: string): Scaffolder {
  return async (version, input, output) => {
    if (version === kbtsVersion()) {
      await runAlphaGenerate(input, { inputDir: input, outputDir: output });
      return;
    }
    const cwd = join(work, `npm-${version}`);
    mkdirSync(cwd, { recursive: true });
    // The project's own npm settings (registry, auth) apply to the kbts it runs.
    if (existsSync(join(project, ".npmrc"))) copyFileSync(join(project, ".npmrc"), join(cwd, ".npmrc"));
    const args = ["exec", "--yes", "--package", `kbts@${version}`, "--", "kbts", "alpha", "generate"];
    const r = await npm([...args, "--input-dir", input, "--output-dir", output], cwd);
    if (r.code !== 0) {
      throw new KbtsError(`npm ${args.join(" ")} failed (exit ${r.code}):\n${tail(r.output)}`, {
        where: "kbts alpha update",
        fix: NOT_ON_REGISTRY.test(r.output)
          ? `kbts ${version} is not on the npm registry: give a released version with --from-version/--to-version`
          : "fix what it reports above, then run kbts alpha update again (your branches are unchanged)",
      });
    }
  };
}

export async function runAlphaUpdate(
  cwd: string,
  flags: AlphaUpdateFlags,
  scaffolder?: Scaffolder,
): Promise<AlphaUpdateResult> {
  const log = flags.log ?? (() => {});
  const restorePaths = (flags.restorePath ?? []).map((p) => p.trim()).filter((p) => p !== "");
  if (flags.showCommits && restorePaths.length > 0) {
    throw new KbtsError("--restore-path is not supported with --show-commits", {
      where: "--restore-path",
      fix: "--restore-path restores files in the squashed commit: drop --show-commits, or --restore-path",
    });
  }
  const git = new Git(cwd, gitConfigOf(flags.gitConfig));

  // The repository, clean.
  const top = git.run(["rev-parse", "--show-toplevel"]);
  if (top.status !== 0) {
    throw new KbtsError(`${cwd} is not in a git repository`, {
      where: "kbts alpha update",
      fix: "alpha update merges in git: commit the project first (git init && git add -A && git commit -m init)",
    });
  }
  const root = top.stdout.trim();
  const prefix = git.out(["rev-parse", "--show-prefix"]);
  // Not trimmed: porcelain's first column is a space for a change not staged.
  const dirty = git.run(["status", "--porcelain"]).stdout.replace(/\n$/, "");
  if (dirty !== "") {
    const lines = dirty.split("\n");
    throw new KbtsError(
      `the working tree has uncommitted changes:\n${lines.slice(0, 10).join("\n")}${lines.length > 10 ? `\n... and ${lines.length - 10} more` : ""}`,
      {
        where: "kbts alpha update",
        fix: "commit or stash them (git stash -u) first: the update checks out its result",
      },
    );
  }
  // Kubebuilder's default is main; a repository without one (git init's master) uses its current branch.
  const current = git.run(["branch", "--show-current"]).stdout.trim();
  const fromBranch =
    flags.fromBranch ??
    (git.ok(["rev-parse", "--verify", "--quiet", `refs/heads/${DEFAULT_BRANCH}`]) || current === ""
      ? DEFAULT_BRANCH
      : current);
  const fromCommit = git.run(["rev-parse", "--verify", "--quiet", `${fromBranch}^{commit}`]);
  if (fromCommit.status !== 0) {
    throw new KbtsError(`branch ${fromBranch} does not exist in ${root}`, {
      where: "--from-branch",
      fix: "name the branch that holds your project with --from-branch (git branch -a lists them)",
    });
  }
  const from = fromCommit.stdout.trim();

  // The versions: PROJECT (as the branch has it) says which kbts made the project.
  const projectAt = `${fromBranch}:${prefix}${PROJECT_FILE}`;
  const projectText = git.run(["show", projectAt]);
  if (projectText.status !== 0) {
    throw new KbtsError(`${fromBranch} has no ${prefix}${PROJECT_FILE}`, {
      where: "kbts alpha update",
      fix: "run it in the project's root directory, on a repository whose branch holds the project",
    });
  }
  const config = parseProject(projectText.stdout, projectAt);
  if (flags.fromVersion === undefined && config.cliVersion === undefined) {
    throw new KbtsError("PROJECT has no cliVersion, so the kbts that made the project is not known", {
      where: projectAt,
      fix: "name it with --from-version (e.g. --from-version 0.1.0)",
    });
  }
  const fromVersion = normalizeVersion(
    flags.fromVersion ?? config.cliVersion ?? "",
    flags.fromVersion === undefined ? `${projectAt} cliVersion` : "--from-version",
  );
  const toVersion = normalizeVersion(flags.toVersion ?? kbtsVersion(), "--to-version");
  if (fromVersion === toVersion) {
    return {
      written: [],
      conflicts: [],
      next: `The project is already on kbts ${toVersion}: nothing to update.`,
    };
  }
  const out = flags.outputBranch ?? outputBranchName(fromVersion, toVersion);
  if (!git.ok(["check-ref-format", "--branch", out])) {
    throw new KbtsError(`${JSON.stringify(out)} is not a valid branch name`, {
      where: "--output-branch",
      fix: "give a git branch name (git check-ref-format --branch NAME accepts it)",
    });
  }
  if (git.ok(["rev-parse", "--verify", "--quiet", `refs/heads/${out}`]) && !flags.force) {
    throw new KbtsError(`branch ${out} exists (from an earlier update?)`, {
      where: flags.outputBranch === undefined ? "kbts alpha update" : "--output-branch",
      fix: `delete it (git branch -D ${out}), name another with --output-branch, or pass --force to replace it`,
    });
  }
  if (flags.openGhIssue && spawnSync("gh", ["--version"]).status !== 0) {
    throw new KbtsError("--open-gh-issue needs the GitHub CLI, gh, on PATH", {
      where: "--open-gh-issue",
      fix: "install gh (https://cli.github.com) and log in (gh auth login), or drop --open-gh-issue",
    });
  }
  if (scaffolder === undefined) {
    for (const [version, where] of [
      [fromVersion, flags.fromVersion === undefined ? `${projectAt} cliVersion` : "--from-version"],
      [toVersion, "--to-version"],
    ] as const) {
      if (version !== kbtsVersion()) await checkPublished(version, where, cwd);
    }
  }

  const work = mkdtempSync(join(tmpdir(), "kbts-update-"));
  const refs = {
    ancestor: `${TEMP_REFS}ancestor-${fromVersion}`,
    original: `${TEMP_REFS}original-${fromBranch}`,
    upgrade: `${TEMP_REFS}upgrade-${toVersion}`,
  };
  const cleanup = (): void => {
    for (const ref of Object.values(refs)) git.run(["update-ref", "-d", ref]);
    rmSync(work, { recursive: true, force: true });
  };
  process.on("exit", cleanup);
  try {
    const scaffold = scaffolder ?? npmScaffolder(work, cwd);
    const gitDir = git.out(["rev-parse", "--absolute-git-dir"]);
    const index = (name: string) => ({ GIT_INDEX_FILE: join(work, `index-${name}`) });
    const sub = prefix.replace(/\/$/, "");

    // The project as the branch has it, exported (no .git, no ignored files) as alpha generate's input.
    const input = join(work, "input");
    git.out(["read-tree", sub === "" ? `${from}^{tree}` : `${from}:${sub}`], {
      cwd: root,
      env: index("input"),
    });
    git.out(["checkout-index", "--all", "--force", `--prefix=${input}/`], { cwd: root, env: index("input") });

    /** The repository's tree at --from-branch with the project's directory replaced by `dir`. */
    const treeOf = (dir: string, name: string): string => {
      const env = { ...index(name), GIT_DIR: gitDir, GIT_WORK_TREE: dir };
      git.out(["read-tree", "--empty"], { cwd: dir, env });
      git.out(["add", "--all", "."], { cwd: dir, env });
      const project = git.out(["write-tree"], { cwd: dir, env });
      if (sub === "") return project;
      const whole = index(`${name}-whole`);
      git.out(["read-tree", from], { cwd: root, env: whole });
      git.out(["rm", "-r", "-f", "--cached", "--quiet", "--ignore-unmatch", "--", sub], {
        cwd: root,
        env: whole,
      });
      git.out(["read-tree", `--prefix=${sub}/`, project], { cwd: root, env: whole });
      return git.out(["write-tree"], { cwd: root, env: whole });
    };
    const commit = (tree: string, parents: string[], message: string): string =>
      git.out(["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-m", message], { cwd: root });

    log(`Re-scaffolding the project with kbts ${fromVersion} (the ancestor)...`);
    const ancestorDir = join(work, "ancestor");
    await scaffold(fromVersion, input, ancestorDir);
    const ancestor = commit(
      treeOf(ancestorDir, "ancestor"),
      [from],
      `(chore) initial scaffold from kbts ${fromVersion}`,
    );
    const original = commit(
      git.out(["rev-parse", `${from}^{tree}`]),
      [ancestor],
      `(chore) original code from ${fromBranch} to keep changes`,
    );
    log(`Re-scaffolding the project with kbts ${toVersion} (the upgrade)...`);
    const upgradeDir = join(work, "upgrade");
    await scaffold(toVersion, input, upgradeDir);
    const upgrade = commit(
      treeOf(upgradeDir, "upgrade"),
      [ancestor],
      `(chore) initial scaffold from kbts ${toVersion}`,
    );
    git.out(["update-ref", refs.ancestor, ancestor]);
    git.out(["update-ref", refs.original, original]);
    git.out(["update-ref", refs.upgrade, upgrade]);

    log(`Merging your code (${fromBranch}) into kbts ${toVersion}'s scaffold...`);
    const label = (ref: string) => ref.slice("refs/".length);
    const merged = git.run(
      [
        "merge-tree",
        "--write-tree",
        "--name-only",
        "--no-messages",
        label(refs.upgrade),
        label(refs.original),
      ],
      { cwd: root },
    );
    if (merged.status !== 0 && merged.status !== 1) {
      throw new KbtsError(`git merge-tree failed: ${(merged.stderr || merged.stdout).trim()}`, {
        where: "kbts alpha update",
        fix: "alpha update needs git 2.38 or later (git --version)",
      });
    }
    const [mergedTree = "", ...names] = merged.stdout.split("\n").filter((l) => l !== "");
    let conflicts = [...new Set(names)].sort();

    if (conflicts.length > 0 && !flags.force) {
      // As Kubebuilder: stop on the output branch with the merge in progress, for the user's merge tools.
      git.out(["checkout", "-B", out, upgrade], { cwd: root });
      git.run(["merge", "--no-ff", "--no-commit", label(refs.original)], { cwd: root });
      throw new KbtsError(
        `the update stopped on ${conflicts.length} conflict${conflicts.length === 1 ? "" : "s"} between your code and kbts ${toVersion}'s scaffold:\n${conflicts.map((c) => `  ${c}`).join("\n")}\nYou are on branch ${out} with the merge in progress.`,
        {
          where: "kbts alpha update",
          fix: `resolve them, git add them and git commit (then npm install && make manifests generate && make test); or git merge --abort && git checkout ${fromBranch}, and run kbts alpha update --force to commit the conflicts with their markers`,
        },
      );
    }

    let result: string;
    const warnings: string[] = [];
    if (flags.showCommits) {
      result = commit(mergedTree, [upgrade, original], message(flags, fromVersion, toVersion, conflicts));
    } else {
      let tree = mergedTree;
      if (restorePaths.length > 0) {
        const env = index("final");
        git.out(["read-tree", mergedTree], { cwd: root, env });
        for (const p of restorePaths) {
          const full = posix.normalize(posix.join(sub, p)).replace(/\/$/, "");
          const entries = git.out(["ls-tree", "-r", "--full-tree", from, "--", full], { cwd: root });
          if (entries === "") {
            warnings.push(`--restore-path ${p}: ${fromBranch} has nothing there; nothing restored.`);
            continue;
          }
          git.out(["rm", "-r", "-f", "--cached", "--quiet", "--ignore-unmatch", "--", full], {
            cwd: root,
            env,
          });
          git.out(["update-index", "--index-info"], { cwd: root, env, input: `${entries}\n` });
          conflicts = conflicts.filter((c) => c !== full && !c.startsWith(`${full}/`));
        }
        tree = git.out(["write-tree"], { cwd: root, env });
      }
      result = commit(tree, [from], message(flags, fromVersion, toVersion, conflicts));
    }
    git.out(["checkout", "-B", out, result], { cwd: root });
    const changed = git.out(["diff", "--name-only", from, result], { cwd: root });
    const written = changed === "" ? [] : changed.split("\n");

    if (flags.push) {
      log(`Pushing ${out} to origin...`);
      git.out(["push", "-u", "origin", out], { cwd: root });
    }
    if (flags.openGhIssue) {
      warnings.push(openGitHubIssue({ fromBranch, out, fromVersion, toVersion, conflicts }, root));
    }
    const lines = [
      `Branch ${out}: your project at ${fromBranch} merged with kbts ${toVersion}'s scaffold (three-way, from kbts ${fromVersion}'s), ${flags.showCommits ? "with its history" : "in one commit"}; you are on it.`,
      ...(conflicts.length > 0
        ? [`Committed with conflict markers (resolve them, then commit): ${conflicts.join(", ")}`, "Then:"]
        : ["Next:"]),
      "$ npm install && make manifests generate && make test",
      `Review it (git diff ${fromBranch}...${out}) and merge it into ${fromBranch}.`,
      ...warnings,
    ];
    return { written, next: lines.join("\n"), outputBranch: out, conflicts };
  } finally {
    process.off("exit", cleanup);
    cleanup();
  }
}

/** The commit message: the flag's or Kubebuilder's subject, and the files left with conflict markers. */
function message(flags: AlphaUpdateFlags, from: string, to: string, conflicts: string[]): string {
  if (conflicts.length === 0) return flags.mergeMessage ?? mergeMessage(from, to);
  const subject = flags.conflictMessage ?? conflictMessage(from, to);
  return `${subject}\n\nConflicts, committed with their markers:\n${conflicts.map((c) => `- ${c}`).join("\n")}\n`;
}

interface IssueFacts {
  fromBranch: string;
  out: string;
  fromVersion: string;
  toVersion: string;
  conflicts: string[];
}

export const issueTitle = (from: string, to: string): string =>
  `[Action Required] Upgrade the Scaffold: ${from} -> ${to}`;

/** The issue body: what changed, the compare link to open the pull request, and what to run. */
export function issueBody(facts: IssueFacts, compareUrl: string): string {
  const release = (v: string) => `[${v}](https://www.npmjs.com/package/kbts/v/${v})`;
  const conflicts =
    facts.conflicts.length === 0
      ? []
      : [
          ":warning: **Conflicts were detected during the merge**, committed with their markers in:",
          ...facts.conflicts.map((c) => `- \`${c}\``),
          "",
          "Resolve them on the branch, then run `npm install && make manifests generate`.",
          "",
        ];
  return [
    "## Description",
    "",
    `Upgrade your project to the scaffold of kbts ${release(facts.toVersion)} (it was made with ${release(facts.fromVersion)}).`,
    "",
    "## What to do",
    "",
    `A scheduled workflow ran \`kbts alpha update\` and pushed the branch \`${facts.out}\`.`,
    "",
    ...conflicts,
    "Create a pull request with the link below to review the changes:",
    compareUrl,
    "",
    "## Next steps",
    "- `npm install && make manifests generate && make test`",
    "- Confirm everything still works",
    "",
  ].join("\n");
}

/** Opens the tracking issue with gh, unless an open one has the same title; returns what happened. */
function openGitHubIssue(facts: IssueFacts, root: string): string {
  const gh = (args: string[]) => spawnSync("gh", args, { cwd: root, encoding: "utf8" });
  const repo = gh(["repo", "view", "--json", "nameWithOwner", "--jq", ".nameWithOwner"]);
  if (repo.status !== 0) {
    throw new KbtsError(`gh repo view failed: ${(repo.stderr || repo.stdout).trim()}`, {
      where: "--open-gh-issue",
      fix: `the branch ${facts.out} is made; log in with gh auth login (or set GH_TOKEN), then open the issue by hand`,
    });
  }
  const name = repo.stdout.trim();
  const title = issueTitle(facts.fromVersion, facts.toVersion);
  const open = gh(["issue", "list", "--repo", name, "--state", "open", "--search", `in:title "${title}"`]);
  if (open.status === 0 && open.stdout.includes(title)) return `An open issue is titled "${title}" already.`;
  const url = `https://github.com/${name}/compare/${facts.fromBranch}...${facts.out}?expand=1`;
  const made = gh(["issue", "create", "--repo", name, "--title", title, "--body", issueBody(facts, url)]);
  if (made.status !== 0) {
    throw new KbtsError(`gh issue create failed: ${(made.stderr || made.stdout).trim()}`, {
      where: "--open-gh-issue",
    });
  }
  return `Opened ${made.stdout.trim()} to track the update.`;
}
