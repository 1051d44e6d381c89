import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { KbtsError } from "../errors.js";
import { StagedFS } from "./staged.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function project(): string {
  dir = mkdtempSync(join(tmpdir(), "kbts-fs-"));
  writeFileSync(join(dir, "PROJECT"), "old\n");
  return dir;
}

describe("StagedFS", () => {
  it("writes nothing until flush, then only what changed", () => {
    const fs = new StagedFS(project());
    fs.write("a/b/c.txt", "new");
    fs.write("PROJECT", "old\n");
    expect(existsSync(join(dir, "a"))).toBe(false);
    expect(fs.read("a/b/c.txt")).toBe("new");
    expect(fs.exists("a/b/c.txt")).toBe(true);
    expect(fs.flush()).toEqual(["a/b/c.txt"]);
    expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe("new");
  });

  it("restores the tree when a write fails midway", () => {
    const fs = new StagedFS(project());
    fs.write("PROJECT", "changed\n");
    fs.write("new/dir/file.ts", "x");
    fs.write("z-last.txt", "y");
    let n = 0;
    let error: unknown;
    try {
      fs.flush({
        beforeWrite: () => {
          if (++n === 3) throw new Error("disk full");
        },
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(KbtsError);
    expect((error as Error).message).toMatch(/nothing was changed: z-last.txt: disk full/);
    expect(readFileSync(join(dir, "PROJECT"), "utf8")).toBe("old\n");
    expect(existsSync(join(dir, "new"))).toBe(false);
    expect(existsSync(join(dir, "z-last.txt"))).toBe(false);
  });

  it("refuses paths outside the project", () => {
    const fs = new StagedFS(project());
    expect(() => fs.write("../escape.txt", "x")).toThrow(/outside the project/);
    expect(() => fs.write("/etc/passwd", "x")).toThrow(/outside the project/);
  });

  it("reads through to files on disk", () => {
    const fs = new StagedFS(project());
    mkdirSync(join(dir, "cmd"));
    writeFileSync(join(dir, "cmd/main.ts"), "main");
    expect(fs.read("cmd/main.ts")).toBe("main");
    expect(fs.read("missing.ts")).toBeUndefined();
  });
});
