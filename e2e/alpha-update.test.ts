/**
 * `kbts alpha update` across a template change between two kbts releases, as users get them: the old
 * release is this checkout with two templates as they "were" (the Makefile without its first line, the
 * README with another title) and a version before this one; the new one is this checkout. Both are
 * packed (`make dist`'s packCheckout) and served by a local registry (e2e/support/npm-registry.ts), so
 * the user makes the project with `npm exec kbts@<old>`, and alpha update runs the old release through
 * npm too. The new release is this checkout's build (bin/kbts.js, what `make dist` would pack): alpha
 * update scaffolds its own version in-process, never through npm, so packing it would add a minute
 * (npm installing it again) and test nothing more.
 * (The project depends on kbts by version, --runtime registry, so no step packs kbts again for vendor/.)
 * The user edits a controller's reconcile body, adds a file and retitles the README; the update keeps
 * their code, brings the new Makefile line, and reports the README (edited on both sides) as a
 * conflict: stopping without --force, committed with markers and named with it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packCheckout } from "../src/packaging/pack.js";
import { buildCheckout } from "./support/build.js";
import { emptyNpmCache, npmEnv } from "./support/npm.js";
import { type LocalRegistry, startRegistry } from "./support/npm-registry.js";
import { KBTS, REPO } from "./support/paths.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-update-"));
const npmCache = emptyNpmCache();
const project = join(work, "fleet");
const NEW = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
// A prerelease of this version sorts before it, as an older release does.
const OLD = `${NEW}-e2e.1`;
const OUTPUT = `kbts-update-from-${OLD}-to-${NEW}`;
const MAKEFILE_TEMPLATE = "templates/typescript/init/Makefile.hbs";
const README_TEMPLATE = "templates/typescript/init/README.md.hbs";
const CONTROLLER = "internal/controller/frigate_controller.ts";
const USER_LINE = '    log.info("fleet: counting frigates before anything else");';
const USER_TITLE = "# Fleet operator, as its user calls it";

let registry: LocalRegistry;
let env: Record<string, string>;
/** The Makefile's first line, which the old release lacks. */
const newMakefileLine = readFileSync(join(REPO, MAKEFILE_TEMPLATE), "utf8").split("\n")[0] ?? "";

const run = (file: string, args: string[]) =>
  execa(file, args, { cwd: project, env, all: true, reject: false, stdin: "ignore" });
const oldKbts = (args: string[]) =>
  run("npm", ["exec", "--yes", "--package", `kbts@${OLD}`, "--", "kbts", ...args]);
/** The new release: this checkout's build, which alpha update runs in-process for its own version. */
const kbts = (args: string[]) => run("node", [KBTS, ...args]);
const git = async (...args: string[]) => {
  const r = await run("git", args);
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.all}`);
  return r.stdout.trim();
};
const read = (path: string) => readFileSync(join(project, path), "utf8");

/** This built checkout as the old release: its version before this one, two templates as they were. */
function oldRelease(): string {
  const root = join(work, "old-kbts");
  for (const dir of ["bin", "dist", "templates", "runtime/dist", "runtime/package.json", "README.md"]) {
    cpSync(join(REPO, dir), join(root, dir), { recursive: true });
  }
  const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
  writeFileSync(join(root, "package.json"), `${JSON.stringify({ ...pkg, version: OLD }, null, 2)}\n`);
  const makefile = readFileSync(join(REPO, MAKEFILE_TEMPLATE), "utf8");
  writeFileSync(join(root, MAKEFILE_TEMPLATE), makefile.slice(makefile.indexOf("\n") + 1));
  const readme = readFileSync(join(REPO, README_TEMPLATE), "utf8").split("\n");
  readme[0] = `${readme[0]} (an older kbts)`;
  writeFileSync(join(root, README_TEMPLATE), readme.join("\n"));
  return packCheckout(join(work, "old-dist"), root).kbts;
}

beforeAll(async () => {
  await buildCheckout();
  expect(newMakefileLine).not.toBe("");
  expect(newMakefileLine).not.toContain("{{");
  registry = await startRegistry([oldRelease()]);
  env = {
    ...npmEnv(npmCache),
    npm_config_registry: registry.url,
    GIT_AUTHOR_NAME: "Fleet Dev",
    GIT_AUTHOR_EMAIL: "dev@fleet.example.com",
    GIT_COMMITTER_NAME: "Fleet Dev",
    GIT_COMMITTER_EMAIL: "dev@fleet.example.com",
  };
  mkdirSync(project);
}, 300_000);

afterAll(async () => {
  await registry?.close();
  if (process.env.KEEP_E2E !== "true") {
    rmSync(work, { recursive: true, force: true });
    rmSync(npmCache, { recursive: true, force: true });
  }
});

describe.sequential("kbts alpha update across a template change", () => {
  it(`a project is made with kbts ${OLD} from the registry and edited by its user`, async () => {
    await git("init", "-q", "-b", "main");
    const init = await oldKbts([
      "init",
      "--domain",
      "example.com",
      "--repo",
      "example.com/fleet",
      ...["--runtime", "registry", "--skip-install"],
    ]);
    expect(init.exitCode, init.all).toBe(0);
    const api = await oldKbts([
      ...["create", "api", "--group", "ships", "--version", "v1", "--kind", "Frigate"],
      ...["--resource", "--controller"],
    ]);
    expect(api.exitCode, api.all).toBe(0);
    expect(read("PROJECT")).toContain(`cliVersion: ${OLD}`);
    expect(read("Makefile")).not.toContain(newMakefileLine);
    await git("add", "-A");
    await git("commit", "-q", "-m", "scaffold");

    const controller = read(CONTROLLER);
    expect(controller).toContain("    // TODO(user): your logic here\n");
    writeFileSync(
      join(project, CONTROLLER),
      controller.replace("    // TODO(user): your logic here\n", `${USER_LINE}\n`),
    );
    mkdirSync(join(project, "internal/fleet"));
    writeFileSync(join(project, "internal/fleet/ships.ts"), "export const FLEET_SIZE = 12;\n");
    const readme = read("README.md").split("\n");
    readme[0] = USER_TITLE;
    writeFileSync(join(project, "README.md"), readme.join("\n"));
    await git("add", "-A");
    await git("commit", "-q", "-m", "my fleet");
  });

  it("refuses a version the registry does not have, and says what npm answered when it fails", async () => {
    const r = await kbts(["alpha", "update", "--from-version", "9.9.9"]);
    expect(r.exitCode, r.all).toBe(1);
    expect(r.stderr).toContain(`--from-version: kbts 9.9.9 is not on the npm registry ${registry.url}`);
    expect(await git("branch", "--show-current")).toBe("main");
    // A registry npm cannot reach: npm's own error is printed.
    const down = await execa("node", [KBTS, "alpha", "update"], {
      cwd: project,
      env: { ...env, npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" },
      all: true,
      reject: false,
      stdin: "ignore",
    });
    expect(down.exitCode, down.all).toBe(1);
    expect(down.stderr).toMatch(/npm view kbts@\S+ failed \(exit \d+\):\n[\s\S]*ECONNREFUSED/);
    expect(await git("branch", "--show-current")).toBe("main");
  });

  it("without --force, stops on the conflict, naming the file, with the merge in progress", async () => {
    const main = await git("rev-parse", "main");
    const r = await kbts(["alpha", "update"]);
    expect(r.exitCode, r.all).toBe(1);
    expect(r.stderr).toContain(`conflict between your code and kbts ${NEW}'s scaffold:\n  README.md\n`);
    expect(r.stderr).toContain("--force");
    expect(await git("branch", "--show-current")).toBe(OUTPUT);
    expect(await git("diff", "--name-only", "--diff-filter=U")).toBe("README.md");
    // The rest merged: the user's code and the new Makefile line are in the tree.
    expect(read(CONTROLLER)).toContain(USER_LINE);
    expect(read("Makefile").split("\n")[0]).toBe(newMakefileLine);
    await git("merge", "--abort");
    await git("checkout", "-q", "main");
    await git("branch", "-D", OUTPUT);
    expect(await git("rev-parse", "main")).toBe(main);
  });

  it(`with --force, commits the update to ${NEW} on ${OUTPUT}: the user's code, the new template, the conflict marked and named`, async () => {
    const main = await git("rev-parse", "main");
    const r = await kbts(["alpha", "update", "--force"]);
    expect(r.exitCode, r.all).toBe(0);
    expect(r.stdout).toContain("Committed with conflict markers (resolve them, then commit): README.md\n");
    expect(await git("branch", "--show-current")).toBe(OUTPUT);
    expect(await git("rev-parse", "HEAD^")).toBe(main);
    const message = await git("log", "-1", "--format=%B");
    expect(message).toContain(`update scaffold ${OLD} -> ${NEW}`);
    // README.md and nothing else: the files the user did not touch as the templates did merge cleanly.
    expect(message).toMatch(/\n\nConflicts, committed with their markers:\n- README\.md\n?$/);
    expect(read(CONTROLLER)).toContain(USER_LINE);
    expect(read("internal/fleet/ships.ts")).toBe("export const FLEET_SIZE = 12;\n");
    expect(read("Makefile").split("\n")[0]).toBe(newMakefileLine);
    expect(read("README.md")).toMatch(
      new RegExp(`^<<<<<<< [^\\n]+\\n# fleet\\n=======\\n${USER_TITLE}\\n>>>>>>> `),
    );
    expect(read("PROJECT")).toContain(`cliVersion: ${NEW}`);
    expect(read("package.json")).toContain(`"kbts": "^${NEW}"`);
    expect(await git("status", "--porcelain")).toBe("");
    expect(await git("for-each-ref", "refs/kbts-update")).toBe("");
  });
});
