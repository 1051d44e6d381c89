/**
 * A Dockerfile's build, without a container engine, as far as its build context is concerned: the
 * context is the project filtered by .dockerignore, each stage is an empty directory standing for the
 * stage's WORKDIR, COPY brings in only what it names (from the context or an earlier stage) and RUN
 * runs there with bash. The base image's Node.js and npm are this machine's (or `node` given), the npm
 * registry is reachable as in a real build, and nothing else is: no checkout, no global kbts, an
 * empty npm cache and HOME. So a file the build needs but the Dockerfile does not bring in fails the
 * build, naming it.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, posix } from "node:path";
import { execa } from "execa";
import { glob } from "tinyglobby";

export interface Instruction {
  /** 1-based line of the instruction in the Dockerfile. */
  line: number;
  keyword: string;
  args: string;
}

/** The instructions of a Dockerfile: comments dropped, `\` continuations joined. */
export function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending: { line: number; text: string } | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (pending === undefined && (line === "" || line.startsWith("#"))) return;
    const chunk = line.endsWith("\\") ? line.slice(0, -1) : line;
    pending = pending
      ? { line: pending.line, text: `${pending.text} ${chunk}` }
      : { line: i + 1, text: chunk };
    if (line.endsWith("\\")) return;
    const [keyword = "", ...rest] = pending.text.split(/\s+/);
    out.push({ line: pending.line, keyword: keyword.toUpperCase(), args: rest.join(" ") });
    pending = undefined;
  });
  return out;
}

/**
 * The files `docker build` sends for `project`, as paths relative to it: .dockerignore's patterns in
 * order, the last match deciding (a `!pattern` puts files back).
 */
export async function contextFiles(project: string): Promise<string[]> {
  const all = await glob("**", {
    cwd: project,
    dot: true,
    onlyFiles: true,
    ignore: ["node_modules/**", ".git/**"],
  });
  const ignoreFile = join(project, ".dockerignore");
  if (!existsSync(ignoreFile)) return all.sort();
  const files = new Set(all);
  const kept = new Set(all);
  for (const raw of readFileSync(ignoreFile, "utf8").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const include = line.startsWith("!");
    const pattern = include ? line.slice(1) : line;
    const matched = await glob(pattern, { cwd: project, dot: true, onlyFiles: true });
    for (const f of matched) {
      if (!files.has(f)) continue;
      if (include) kept.add(f);
      else kept.delete(f);
    }
  }
  return [...kept].sort();
}

export class DockerBuildError extends Error {}

/** Applies one `ENV name=value` instruction's arguments to `env`. */
function setEnv(env: Record<string, string>, args: string, expand: (value: string) => string = (v) => v) {
  const [name = "", ...value] = args.split("=");
  // ENV NAME="a b" is how a value with spaces is written (several NODE_OPTIONS flags); Docker drops the quotes.
  const text = value.join("=");
  const quoted = /^"(.*)"$/s.exec(text);
  env[name] = expand(quoted ? (quoted[1] as string).replace(/\\(["\\])/g, "$1") : text);
}

/**
 * The environment the image of `project`'s Dockerfile starts its process with (its last stage's ENV
 * instructions), read without building it: for running the build's output as the image runs it.
 */
export function imageEnv(project: string): Record<string, string> {
  let env: Record<string, string> = {};
  for (const i of parseDockerfile(readFileSync(join(project, "Dockerfile"), "utf8"))) {
    if (i.keyword === "FROM") env = {};
    if (i.keyword === "ENV") setEnv(env, i.args);
  }
  return env;
}

interface Stage {
  name: string;
  dir: string;
  /** The stage's WORKDIR (absolute, in the image); paths under it map into `dir`. */
  workdir: string;
  env: Record<string, string>;
  entrypoint?: string[];
}

export interface BuildResult {
  /** The final stage's directory (its WORKDIR). */
  dir: string;
  env: Record<string, string>;
  entrypoint: string[];
  /** Each RUN's command and output, in order. */
  log: string[];
}

export interface BuildOptions {
  /** The directory that holds the stages; created, must not exist or be empty. */
  root: string;
  /** The `node`/`npm` bin directory standing for the base image's (default: this machine's). */
  nodeBin?: string;
  /** Files to leave out of the context, as if the user had not committed them. */
  withhold?: string[];
}

/** Builds `project`'s Dockerfile into `options.root` (see the module comment). */
export async function buildDockerfile(project: string, options: BuildOptions): Promise<BuildResult> {
  const instructions = parseDockerfile(readFileSync(join(project, "Dockerfile"), "utf8"));
  const context = join(options.root, "context");
  const withheld = (f: string) => (options.withhold ?? []).some((w) => f === w || f.startsWith(`${w}/`));
  for (const f of await contextFiles(project)) {
    if (withheld(f)) continue;
    mkdirSync(dirname(join(context, f)), { recursive: true });
    cpSync(join(project, f), join(context, f));
  }
  const home = mkdtempSync(join(tmpdir(), "kbts-docker-home-"));
  const npmCache = mkdtempSync(join(tmpdir(), "kbts-docker-npm-"));
  const nodeBin = options.nodeBin ?? dirname(process.execPath);
  const stages: Stage[] = [];
  const args: Record<string, string> = {};
  const log: string[] = [];
  const where = (i: Instruction) => `Dockerfile:${i.line}: ${i.keyword} ${i.args}`;
  const expand = (s: string, env: Record<string, string>) =>
    s.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a: string, b: string) => env[a ?? b] ?? args[a ?? b] ?? "");
  try {
    for (const i of instructions) {
      const stage = stages.at(-1);
      if (i.keyword === "ARG") {
        const [name = "", value = ""] = i.args.split("=");
        args[name] = value;
        continue;
      }
      if (i.keyword === "FROM") {
        const name = /\bAS\s+(\S+)/i.exec(i.args)?.[1] ?? String(stages.length);
        const dir = join(options.root, `stage-${stages.length}-${name}`);
        mkdirSync(dir, { recursive: true });
        stages.push({ name, dir, workdir: "/", env: {} });
        continue;
      }
      if (stage === undefined) throw new DockerBuildError(`${where(i)}: before any FROM`);
      const inStage = (s: Stage, path: string) => {
        const abs = posix.resolve(s.workdir, path);
        const rel = posix.relative(s.workdir, abs);
        if (rel.startsWith("..")) {
          throw new DockerBuildError(
            `${where(i)}: ${abs} is outside the WORKDIR ${s.workdir} this build models`,
          );
        }
        return join(s.dir, rel);
      };
      switch (i.keyword) {
        case "WORKDIR":
          stage.workdir = posix.resolve(stage.workdir, expand(i.args, stage.env));
          break;
        case "ENV":
          setEnv(stage.env, i.args, (v) => expand(v, stage.env));
          break;
        case "USER":
        case "LABEL":
        case "EXPOSE":
          break;
        case "ENTRYPOINT":
          stage.entrypoint = JSON.parse(i.args) as string[];
          break;
        case "COPY": {
          const words = i.args.split(/\s+/);
          const from = words.find((w) => w.startsWith("--from="))?.slice("--from=".length);
          const [dest = "", ...sources] = words.filter((w) => !w.startsWith("--")).reverse();
          const source = from === undefined ? undefined : stages.find((s) => s.name === from);
          if (from !== undefined && source === undefined)
            throw new DockerBuildError(`${where(i)}: no stage ${from}`);
          for (const src of sources.reverse()) {
            const path = source ? inStage(source, src) : join(context, src);
            if (!existsSync(path)) {
              throw new DockerBuildError(
                `${where(i)}: ${src} not found ${source ? `in stage ${from}` : "in the build context (.dockerignore and the project's files)"}`,
              );
            }
            const target =
              dest.endsWith("/") && !src.endsWith("/") && src !== "."
                ? posix.join(dest, posix.basename(src))
                : dest;
            const to = inStage(stage, target);
            mkdirSync(dirname(to), { recursive: true });
            cpSync(path, to, { recursive: true });
          }
          break;
        }
        case "RUN": {
          const env = {
            PATH: [
              nodeBin,
              "/usr/local/sbin",
              "/usr/local/bin",
              "/usr/sbin",
              "/usr/bin",
              "/sbin",
              "/bin",
            ].join(delimiter),
            HOME: home,
            // This machine's way to the registry (a proxy's CA), as a docker daemon would have it.
            ...(process.env.NODE_EXTRA_CA_CERTS
              ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS }
              : {}),
            npm_config_cache: npmCache,
            npm_config_update_notifier: "false",
            ...stage.env,
          };
          const result = await execa("bash", ["-c", i.args], {
            cwd: inStage(stage, "."),
            env,
            extendEnv: false,
            all: true,
            reject: false,
            stdin: "ignore",
          });
          log.push(`$ ${i.args}\n${result.all}`);
          if (result.exitCode !== 0) {
            throw new DockerBuildError(`${where(i)}: exited ${result.exitCode}:\n${result.all}`);
          }
          break;
        }
        default:
          throw new DockerBuildError(`${where(i)}: ${i.keyword} is not modelled by this build`);
      }
    }
  } finally {
    rmSync(npmCache, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
  const last = stages.at(-1);
  if (last?.entrypoint === undefined)
    throw new DockerBuildError("Dockerfile: the last stage has no ENTRYPOINT");
  return { dir: last.dir, env: last.env, entrypoint: last.entrypoint, log };
}
