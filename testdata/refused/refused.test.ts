/** Every input of the corpus is refused with its message at its location, and nothing is written. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTree } from "../golden.js";
import { buildBases, listRefusedCases, prepare, type RefusedCase, runCase } from "./cases.js";

const work = mkdtempSync(join(tmpdir(), "kbts-refused-"));
let bases: Record<RefusedCase["base"], string>;
beforeAll(async () => {
  bases = await buildBases(work);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cases = listRefusedCases();

describe("the broken-input corpus is refused", () => {
  it("holds every case the issue lists", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases.map((c) => [c.name, c] as const))(
    "%s",
    async (name, c) => {
      const dir = join(work, name);
      prepare(c, bases[c.base], dir);
      const before = readTree(dir);
      const err = await runCase(c, dir).then(
        () => new Error("accepted"),
        (e: unknown) => e,
      );
      expect(err, c.about).toMatchObject({ where: c.where, message: expect.stringContaining(c.message) });
      expect(readTree(dir)).toEqual(before);
    },
    60_000,
  );
});
