/**
 * Hostile flag values: each free-text flag of `kbts init` gets a payload written for each context a
 * value can land in (block comment, string literal, template literal, JSON, YAML, Makefile, shell).
 * Each payload, if it ever ran, writes a marker file. The flag is either refused with an error that
 * names it (and nothing is written), or the project is scaffolded (plus `create api`) and then every
 * generated file is parsed for what it is, the payload is found only inside comments and strings,
 * the generated TypeScript is run with tsx, `make help` reads the Makefile, and no marker appears.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ts } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { readTree } from "../../testdata/golden.js";
import { type InitFlags, runCreateApi, runInit } from "../commands/index.js";
import { KbtsError } from "../errors.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "kbts-injection-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every payload writes `marker`; `{M}` is replaced by the marker's absolute path. */
const PAYLOADS: Record<string, string> = {
  comment: '*/ import("node:fs").then((f) => f.writeFileSync("{M}")); /*',
  newline: 'x\nimport("node:fs").then((f) => f.writeFileSync("{M}"));\n// ',
  string: '"; import("node:fs").then((f) => f.writeFileSync("{M}")); "',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is a template-literal substitution
  template: '${import("node:fs").then((f) => f.writeFileSync("{M}"))}',
  json: '1.0"}, "scripts": {"preinstall": "touch {M}"}, "x": {"y": "',
  yaml: "x\nscripts:\n  preinstall: touch {M}\n",
  makefile: "$(shell touch {M})",
  shell: "$(touch {M}) `touch {M}`; touch {M} #",
};

const FLAGS: Array<keyof InitFlags> = ["owner", "repo", "runtime", "projectName", "domain", "license"];

const flagName = (f: string) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

function files(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules") continue;
    if (e.isDirectory()) out.push(...files(join(dir, e.name), `${prefix}${e.name}/`));
    else out.push(`${prefix}${e.name}`);
  }
  return out;
}

/** Where `needle` occurs in TypeScript `text`, outside comments and string/template literal text. */
function liveOccurrences(path: string, text: string, needle: string): number[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const diagnostics = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  expect(
    diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    path,
  ).toEqual([]);
  const inert: Array<[number, number]> = [];
  const visit = (node: ts.Node): void => {
    for (const r of [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ]) {
      inert.push([r.pos, r.end]);
    }
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateLiteralToken(node)
    ) {
      inert.push([node.getStart(), node.getEnd()]);
    }
    node.forEachChild(visit);
  };
  visit(sf);
  inert.push(
    ...(ts.getLeadingCommentRanges(text, sf.endOfFileToken.getFullStart()) ?? []).map(
      (r) => [r.pos, r.end] as [number, number],
    ),
  );
  const out: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
    if (!inert.some(([a, b]) => i >= a && i < b)) out.push(i);
  }
  return out;
}

function checkProject(dir: string, marker: string): void {
  const scripts = [
    "manifests",
    "generate",
    "fmt",
    "lint",
    "typecheck",
    "test",
    "test-e2e",
    "build",
    "build-bundle",
    "start",
  ];
  for (const f of files(dir)) {
    const text = readFileSync(join(dir, f), "utf8");
    if (f.endsWith(".ts") || f.endsWith(".mjs")) {
      expect(liveOccurrences(f, text, marker), `${f} runs the payload`).toEqual([]);
    } else if (f.endsWith(".json")) {
      const value = JSON.parse(text) as Record<string, unknown>;
      if (f === "package.json") {
        expect(Object.keys(value.scripts as object)).toEqual(scripts);
        expect(Object.keys(value).sort()).toEqual(
          [
            "dependencies",
            "devDependencies",
            "engines",
            "name",
            "private",
            "scripts",
            "type",
            "version",
          ].sort(),
        );
      }
    } else if (f.endsWith(".yaml") || f === "PROJECT") {
      for (const doc of parseAllDocuments(text)) {
        expect(
          doc.errors.map((e) => e.message),
          f,
        ).toEqual([]);
      }
    }
  }
  const project = parseAllDocuments(readFileSync(join(dir, "PROJECT"), "utf8"))[0]?.toJS() as Record<
    string,
    unknown
  >;
  expect(Object.keys(project).sort()).toEqual(
    ["cliVersion", "domain", "layout", "projectName", "repo", "resources", "version"].sort(),
  );
  expect(existsSync(marker), "a payload ran").toBe(false);
}

/** The generated TypeScript each accepted project's process imports, in order. */
const LOADED_FILES = [
  "cmd/main.ts",
  "vitest.config.ts",
  "api/v1/widget_types.ts",
  "internal/controller/widget_controller.ts",
];

/**
 * Imports LOADED_FILES of the project in the working directory and prints one line per file:
 * `LOADED <file>`, or `EXITED <code> <file>` when it called process.exit (stubbed to throw, so one
 * file's exit cannot end the process before the next is imported). Any other failure is thrown, so
 * the process exits non-zero. cmd/main.ts gets an unknown flag, so it stops at its argument parsing,
 * after its imports and top-level code, instead of starting a manager.
 */
const LOADER = `
class Exit extends Error {}
process.exit = (code) => { throw Object.assign(new Exit("process.exit"), { code }); };
process.argv = [process.execPath, "main.ts", "--kbts-probe"];
const { pathToFileURL } = await import("node:url");
for (const file of ${JSON.stringify(LOADED_FILES)}) {
  try {
    await import(pathToFileURL(file).href);
    console.log("LOADED " + file);
  } catch (err) {
    if (!(err instanceof Exit)) throw err;
    console.log("EXITED " + err.code + " " + file);
  }
}
`;

/** Runs the LOADER in a tsx process in `dir`. */
function loadProject(dir: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", LOADER], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Runs what a user runs: the generated TypeScript (one tsx process per project, two at a time) and
 * make. Every file of every project must load, and cmd/main.ts stop only at the probe flag.
 */
async function runProjects(dirs: string[]): Promise<void> {
  for (const dir of dirs) symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  const runs = new Map<string, Awaited<ReturnType<typeof loadProject>>>();
  const queue = [...dirs];
  await Promise.all(
    [0, 1].map(async () => {
      for (let dir = queue.shift(); dir !== undefined; dir = queue.shift())
        runs.set(dir, await loadProject(dir));
    }),
  );
  for (const dir of dirs) {
    const run = runs.get(dir);
    expect(run?.stdout.trim().split("\n"), `${dir}: ${run?.stderr}`).toEqual([
      "EXITED 2 cmd/main.ts",
      ...LOADED_FILES.slice(1).map((f) => `LOADED ${f}`),
    ]);
    expect(run?.stderr, dir).toContain("Unknown option '--kbts-probe'");
    expect(run?.status, `${dir}: ${run?.stderr}`).toBe(0);
    const make = spawnSync("make", ["-s", "help"], { cwd: dir, encoding: "utf8", timeout: 30_000 });
    expect(make.status, `${dir}: make help: ${make.stderr}`).toBe(0);
  }
}

describe("free-text flags cannot inject code into generated files", () => {
  const cases = FLAGS.flatMap((flag) => Object.keys(PAYLOADS).map((context) => [flag, context] as const));
  let n = 0;
  const accepted: string[] = [];
  it.each(cases)(
    "%s with a %s payload is refused or inert",
    async (flag, context) => {
      n += 1;
      const dir = join(work, `p${n}`);
      mkdirSync(dir);
      const marker = join(work, `PWNED-${n}`);
      const payload = (PAYLOADS[context] ?? "").replaceAll("{M}", marker);
      const flags: InitFlags = {
        domain: "example.com",
        repo: "example.com/widget",
        runtime: "registry",
        [flag]: payload,
      };
      let refused: unknown;
      try {
        await runInit(dir, flags);
      } catch (err) {
        refused = err;
      }
      if (refused !== undefined) {
        expect(refused).toBeInstanceOf(KbtsError);
        expect((refused as KbtsError).where).toBe(flagName(flag));
        expect(readTree(dir).size).toBe(0);
        return;
      }
      await runCreateApi(dir, { group: "apps2", version: "v1", kind: "Widget" });
      checkProject(dir, marker);
      accepted.push(dir);
    },
    60_000,
  );

  it("running every accepted project's TypeScript and Makefile runs no payload", async () => {
    expect(accepted.length).toBeGreaterThan(0);
    await runProjects(accepted);
    expect(readdirSync(work).filter((f) => f.startsWith("PWNED"))).toEqual([]);
  }, 180_000);

  it("a payload in hack/boilerplate.ts.txt is refused by create api", async () => {
    const dir = join(work, "boilerplate");
    mkdirSync(dir);
    await runInit(dir, { domain: "example.com", runtime: "registry" });
    const file = join(dir, "hack/boilerplate.ts.txt");
    const before = readTree(dir);
    execFileSync("sh", ["-c", `printf '/* ok */\\nimport("node:fs");\\n' > ${JSON.stringify(file)}`]);
    const changed = readTree(dir);
    await expect(runCreateApi(dir, { group: "apps2", version: "v1", kind: "Widget" })).rejects.toMatchObject({
      where: "hack/boilerplate.ts.txt:2",
      message: expect.stringMatching(/the licence header is not only comments/),
    });
    expect(readTree(dir)).toEqual(changed);
    expect(before.size).toBe(changed.size);
  }, 60_000);
});
