import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTree } from "../../testdata/golden.js";
import { boilerplate } from "../plugins/typescript/plugin.js";
import { parseProject } from "../project/config.js";
import { checkProjectValues } from "../project/validate.js";
import { runEdit } from "./edit.js";
import { runCreateApi, runInit } from "./index.js";

const KBTS = join(import.meta.dirname, "..", "..", "bin", "kbts.js");
let dir: string;
const saved = process.env.SOURCE_DATE_EPOCH;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kbts-license-"));
  process.env.SOURCE_DATE_EPOCH = String(Date.UTC(2024, 5, 1) / 1000);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  if (saved === undefined) delete process.env.SOURCE_DATE_EPOCH;
  else process.env.SOURCE_DATE_EPOCH = saved;
});

const read = (path: string) => readFileSync(join(dir, path), "utf8");
const TYPES = "api/v1/frigate_types.ts";
const CONTROLLER = "internal/controller/frigate_controller.ts";
const USERS = "/*\nCopyright 2024 Someone Else.\nAll rights reserved.\n*/\n\n";

async function project(license: "apache2" | "none", owner?: string) {
  await runInit(dir, {
    domain: "example.com",
    repo: "example.com/fleet",
    runtime: "registry",
    license,
    owner,
  });
  await runCreateApi(dir, { group: "ship", version: "v1", kind: "Frigate" });
}

/** The .ts files that start with `header` (YEAR as 2024), and those that do not. */
function headed(header: string): { with: string[]; without: string[] } {
  const stamped = header.replaceAll("YEAR", "2024");
  const ts = [...readTree(dir)].filter(([p]) => p.endsWith(".ts"));
  return {
    with: ts.filter(([, t]) => t.startsWith(`${stamped}\n\n`)).map(([p]) => p),
    without: ts.filter(([, t]) => !t.startsWith(`${stamped}\n\n`)).map(([p]) => p),
  };
}

describe("kbts edit --license/--owner/--license-file", () => {
  it("puts the new header in the boilerplate and on every file with the old one, leaving re-headed ones", async () => {
    // Files made in 2024; the edit runs in 2026: each file keeps the year it was written with.
    await project("apache2", "A");
    const apacheA = boilerplate({ license: "apache2", owner: "A" });
    const before = headed(apacheA);
    expect(before.with).toContain(TYPES);
    expect(before.with).toContain(CONTROLLER);
    expect(before.with).toContain("cmd/main.ts");
    writeFileSync(join(dir, CONTROLLER), USERS + read(CONTROLLER).slice(apacheA.length + 2));
    const controller = read(CONTROLLER);
    const typesBody = read(TYPES).slice(apacheA.length + 2);
    const project0 = read("PROJECT");

    process.env.SOURCE_DATE_EPOCH = String(Date.UTC(2026, 0, 1) / 1000);
    const result = await runEdit(dir, { license: "MIT", owner: "B" });

    const mitB = boilerplate({ license: "MIT", owner: "B" });
    expect(mitB).toContain("Copyright YEAR B.\n\nPermission is hereby granted, free of charge");
    expect(read("hack/boilerplate.ts.txt")).toBe(`${mitB}\n`);
    const after = headed(mitB);
    // Every file that had apache2 + A now has MIT + B (with its 2024), and nothing else changed in it.
    expect(after.with.sort()).toEqual(before.with.filter((p) => p !== CONTROLLER).sort());
    expect(read(TYPES)).toBe(`${mitB.replaceAll("YEAR", "2024")}\n\n${typesBody}`);
    expect(read(CONTROLLER)).toBe(controller);
    expect(result.next).toContain(`kbts left them as they are:\n  ${CONTROLLER}\n`);
    expect(result.next).not.toMatch(/zz_generated/);
    expect(result.written).toContain("hack/boilerplate.ts.txt");
    expect(result.written).toContain(TYPES);
    expect(result.written).not.toContain(CONTROLLER);
    expect(result.written).not.toContain("PROJECT");
    expect(read("PROJECT")).toBe(project0);
    checkProjectValues(read("PROJECT"));
    expect(parseProject(read("PROJECT")).resources?.[0]?.kind).toBe("Frigate");

    // New files get the new header, stamped with this year.
    await runCreateApi(dir, { group: "ship", version: "v1", kind: "Corvette" });
    expect(read("api/v1/corvette_types.ts").startsWith(`${mitB.replaceAll("YEAR", "2026")}\n\n`)).toBe(true);
  });

  it("keeps the owner when only --license changes, and the license when only --owner does", async () => {
    await project("apache2", "A");
    await runEdit(dir, { license: "copyright" });
    expect(read("hack/boilerplate.ts.txt")).toBe("/*\nCopyright YEAR A.\n*/\n");
    expect(read(TYPES).startsWith("/*\nCopyright 2024 A.\n*/\n\n")).toBe(true);
    await runEdit(dir, { owner: "B" });
    expect(read(TYPES).startsWith("/*\nCopyright 2024 B.\n*/\n\n")).toBe(true);
    const again = await runEdit(dir, { owner: "B" });
    expect(again.written).toEqual([]);
    expect(again.next).toContain("nothing changed");
  });

  it("none removes the headers, and a new license puts them back on every file", async () => {
    await project("apache2");
    const apache = boilerplate({ license: "apache2" });
    const types = read(TYPES);
    await runEdit(dir, { license: "none" });
    expect(read("hack/boilerplate.ts.txt")).toBe("");
    expect(read(TYPES)).toBe(types.slice(apache.length + 2));
    const copyrighted = [...readTree(dir)].filter(([p, t]) => p.endsWith(".ts") && t.includes("Copyright"));
    expect(copyrighted).toEqual([]);
    await runCreateApi(dir, { group: "ship", version: "v1", kind: "Corvette" });
    expect(read("api/v1/corvette_types.ts")).not.toMatch(/^\/\*/);

    await runEdit(dir, { license: "apache2", owner: "C" });
    const apacheC = boilerplate({ license: "apache2", owner: "C" });
    expect(read(TYPES)).toBe(`${apacheC.replaceAll("YEAR", "2024")}\n\n${types.slice(apache.length + 2)}`);
    const missing = headed(apacheC).without.filter((p) => !/zz_generated/.test(p));
    expect(missing).toEqual([]);
  });

  it("takes the header from --license-file, and refuses a missing file or a bad value, writing nothing", async () => {
    await project("apache2", "A");
    const tree = readTree(dir);
    await expect(runEdit(dir, { licenseFile: join(dir, "no-such-header.txt") })).rejects.toMatchObject({
      message: expect.stringContaining(`cannot read the license file ${join(dir, "no-such-header.txt")}`),
      where: "--license-file",
    });
    await expect(runEdit(dir, { license: "gpl" })).rejects.toMatchObject({
      message: 'unknown license "gpl"',
      where: "--license",
    });
    await expect(runEdit(dir, { owner: "B\nC" })).rejects.toThrow(/--owner/);
    writeFileSync(join(dir, "..", `${dir.split("/").pop()}-code.txt`), "export const x = 1;\n");
    await expect(
      runEdit(dir, { licenseFile: join(dir, "..", `${dir.split("/").pop()}-code.txt`) }),
    ).rejects.toThrow(/not only comments/);
    expect(readTree(dir)).toEqual(tree);
    rmSync(join(dir, "..", `${dir.split("/").pop()}-code.txt`));

    const file = join(dir, "..", `${dir.split("/").pop()}-header.txt`);
    writeFileSync(file, "// Copyright YEAR The Fleet Authors.\n// SPDX-License-Identifier: MIT\n");
    try {
      await runEdit(dir, { licenseFile: file });
    } finally {
      rmSync(file);
    }
    expect(read("hack/boilerplate.ts.txt")).toBe(
      "// Copyright YEAR The Fleet Authors.\n// SPDX-License-Identifier: MIT\n",
    );
    expect(read(TYPES)).toMatch(
      /^\/\/ Copyright 2024 The Fleet Authors\.\n\/\/ SPDX-License-Identifier: MIT\n\n/,
    );
  });

  it("takes a header with two YEARs as one year: a file whose years differ was edited and is left", async () => {
    await project("apache2", "A");
    const file = join(dir, "..", `${dir.split("/").pop()}-two-years.txt`);
    writeFileSync(file, "// Copyright YEAR The Fleet Authors.\n// Portions copyright YEAR Others.\n");
    try {
      await runEdit(dir, { licenseFile: file });
    } finally {
      rmSync(file);
    }
    const twoYears = "// Copyright 2024 The Fleet Authors.\n// Portions copyright 2024 Others.\n\n";
    expect(read(TYPES).startsWith(twoYears)).toBe(true);
    expect(read(CONTROLLER).startsWith(twoYears)).toBe(true);
    // The user dates the portions 2025 in one file.
    writeFileSync(
      join(dir, CONTROLLER),
      read(CONTROLLER).replace("Portions copyright 2024", "Portions copyright 2025"),
    );
    const edited = read(CONTROLLER);
    const result = await runEdit(dir, { license: "MIT", owner: "B" });
    expect(
      read(TYPES).startsWith(`${boilerplate({ license: "MIT", owner: "B" }).replaceAll("YEAR", "2024")}\n\n`),
    ).toBe(true);
    expect(read(CONTROLLER)).toBe(edited);
    expect(result.next).toContain(`kbts left them as they are:\n  ${CONTROLLER}\n`);
  });

  it("reads --license, --owner and --license-file on the command line", async () => {
    await project("apache2", "A");
    const kbts = (...args: string[]) =>
      execa("node", [KBTS, "edit", ...args], { cwd: dir, reject: false, all: true });
    const bad = await kbts("--license", "gpl");
    expect(bad.exitCode).toBe(1);
    expect(bad.all).toContain('error: --license: unknown license "gpl"');
    const missing = await kbts("--license-file", "nope.txt");
    expect(missing.exitCode).toBe(1);
    expect(missing.all).toContain("error: --license-file: cannot read the license file nope.txt: ENOENT");
    const ok = await kbts("--license", "MIT", "--owner", "B");
    expect(ok.exitCode, ok.all).toBe(0);
    expect(ok.all).toContain(`  wrote ${TYPES}\n`);
    expect(read("hack/boilerplate.ts.txt")).toBe(`${boilerplate({ license: "MIT", owner: "B" })}\n`);
  }, 60_000);
});
