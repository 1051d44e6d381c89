import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runManifests } from "../manifests/command.js";
import { defineManifests } from "./commands/manifests.js";
import { plainManifestsFlags, serveCachedManifests } from "./fast-path.js";

// The CLI's exit-on-signal handlers would outlive the test in the worker.
vi.mock("../process.js", () => ({ exitCleanlyOnSignals: () => {} }));

let dir: string | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The options commander hands the manifests action for these arguments. */
function commanderFlags(args: string[]): Record<string, unknown> {
  const program = new Command("kbts").exitOverride();
  const command = program.command("manifests");
  defineManifests(command);
  let seen: Record<string, unknown> = {};
  command.action((opts: Record<string, unknown>) => {
    seen = { ...opts };
  });
  program.parse(["node", "kbts", "manifests", ...args]);
  return seen;
}

describe("the cached fast path of kbts manifests", () => {
  it.each([
    [[]],
    [["--strict"]],
    [["--allow-dangerous-types", "--crd-output", "out/crds", "--role-name", "r"]],
    [["--paths", "api", "internal/x.ts", "--strict"]],
    [["--role-name", "r", "--paths", "api/**/*.ts"]],
  ])("parses %j as commander does", (args) => {
    expect(plainManifestsFlags(args)).toEqual(commanderFlags(args));
  });

  it.each([
    [["--check"]],
    [["--watch"]],
    [["--no-cache"]],
    [["--breaking-since", "main"]],
    [["--check-rbac"]],
    [["--list-markers"]],
    [["--help"]],
    [["--strict", "--strict"]],
    [["--paths"]],
    [["--crd-output=out"]],
    [["--role-name"]],
    [["extra"]],
  ])("leaves %j to the full CLI", async (args) => {
    expect(plainManifestsFlags(args)).toBeUndefined();
    expect(await serveCachedManifests(["node", "kbts", "manifests", ...args], tmpdir())).toBeUndefined();
  });

  it("serves an unchanged project as the full run would, and leaves a miss to it", async () => {
    dir = mkdtempSync(join(tmpdir(), "kbts-fast-"));
    const files: Record<string, string> = {
      "api/v1/groupversion_info.ts": "// +groupName=t.kbts.test\nexport const GroupVersion = {} as const;\n",
      "api/v1/thing_types.ts":
        'import type { ObjectMeta } from "@kbts/runtime";\n\n// +kubebuilder:object:root=true\nexport interface Thing {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  spec?: { size?: string };\n}\n',
      "tsconfig.json": '{ "compilerOptions": { "strict": true } }\n',
    };
    for (const [p, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), content);
    }
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((s) => {
      out.push(String(s));
      return true;
    });
    const argv = ["node", "kbts", "manifests", "--role-name", "r"];
    // Nothing cached yet: the full CLI runs (and records the entry).
    expect(await serveCachedManifests(argv, dir)).toBeUndefined();
    await runManifests({ roleName: "r", crdOutput: "config/crd/bases", cache: true }, dir);
    const crd = join(dir, "config/crd/bases/t.kbts.test_things.yaml");
    const written = readFileSync(crd, "utf8");
    // A deleted output is written again from the cache.
    rmSync(crd);
    out.length = 0;
    expect(await serveCachedManifests(argv, dir)).toBe(0);
    expect(readFileSync(crd, "utf8")).toBe(written);
    expect(out.join("")).toMatch(
      /^wrote config\/crd\/bases\/t\.kbts\.test_things\.yaml\n1 written, 0 unchanged \(\d+ms, inputs unchanged since the last run\)\n$/,
    );
    // Other flags are another entry: a miss.
    expect(await serveCachedManifests(["node", "kbts", "manifests"], dir)).toBeUndefined();
    // An edit is a miss.
    writeFileSync(join(dir, "api/v1/thing_types.ts"), `${files["api/v1/thing_types.ts"]}// more\n`);
    expect(await serveCachedManifests(argv, dir)).toBeUndefined();
  }, 60_000);
});
