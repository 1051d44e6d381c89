import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTree } from "../../testdata/golden.js";
import { runEdit } from "./edit.js";
import { runCreateApi, runInit } from "./index.js";

const KBTS = join(import.meta.dirname, "..", "..", "bin", "kbts.js");
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kbts-edit-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const init = (multigroup = false) =>
  runInit(dir, { domain: "example.com", repo: "example.com/fleet", runtime: "registry", multigroup });
const project = () => readFileSync(join(dir, "PROJECT"), "utf8");

describe("kbts edit --multigroup", () => {
  it("turns multigroup on in PROJECT only, lists the moves by hand, and lets a second group in", async () => {
    await init();
    await runCreateApi(dir, { group: "ship", version: "v1", kind: "Frigate" });
    const before = readTree(dir);
    const result = await runEdit(dir, { multigroup: true });
    expect(result.written).toEqual(["PROJECT"]);
    expect(project()).toContain("multigroup: true\n");
    const after = readTree(dir);
    for (const [path, text] of before) if (path !== "PROJECT") expect(after.get(path), path).toBe(text);
    expect(result.next).toContain("api/v1/ -> api/ship/v1/");
    expect(result.next).toContain(
      "internal/controller/frigate_controller.ts -> internal/controller/ship/frigate_controller.ts",
    );
    expect(result.next).toContain("kbts does not move your files");
    // A second group is now allowed, in its own folder.
    await runCreateApi(dir, { group: "sea", version: "v1", kind: "Captain" });
    expect(readTree(dir).has("api/sea/v1/captain_types.ts")).toBe(true);
  });

  it("turns it off when the project has one group, and refuses with two, writing nothing", async () => {
    await init(true);
    await runCreateApi(dir, { group: "ship", version: "v1", kind: "Frigate" });
    await runCreateApi(dir, { group: "sea", version: "v1", kind: "Captain" });
    const before = readTree(dir);
    await expect(runEdit(dir, { multigroup: false })).rejects.toThrow(
      /the project has APIs in 2 groups \(ship, sea\)/,
    );
    expect(readTree(dir)).toEqual(before);
  });

  it("says nothing changed when the setting is already so, and needs a setting", async () => {
    await init();
    expect(await runEdit(dir, { multigroup: false })).toEqual({
      written: [],
      next: "PROJECT already has multigroup: false; nothing changed.",
    });
    await expect(runEdit(dir, {})).rejects.toThrow("nothing to edit");
  });

  it("reads --multigroup and --multigroup=false on the command line", async () => {
    await init();
    const on = await execa("node", [KBTS, "edit", "--multigroup"], { cwd: dir, reject: false, all: true });
    expect(on.exitCode, on.all).toBe(0);
    expect(project()).toContain("multigroup: true\n");
    const off = await execa("node", [KBTS, "edit", "--multigroup=false"], {
      cwd: dir,
      reject: false,
      all: true,
    });
    expect(off.exitCode, off.all).toBe(0);
    expect(project()).not.toContain("multigroup");
  }, 60_000);
});
