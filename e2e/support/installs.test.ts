import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyLockfiles, copyNodeModules } from "./installs.js";

const work = mkdtempSync(join(tmpdir(), "kbts-installs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a copy of another project's install", () => {
  it("keeps file: links on the directory they name, and links inside node_modules as they are", () => {
    const checkout = join(work, "checkout");
    mkdirSync(join(checkout, "runtime"), { recursive: true });
    const from = join(work, "a");
    const to = join(work, "deeper/still/b");
    mkdirSync(join(from, "node_modules/@kbts"), { recursive: true });
    mkdirSync(join(from, "node_modules/.bin"), { recursive: true });
    mkdirSync(join(from, "node_modules/vitest"), { recursive: true });
    writeFileSync(join(from, "node_modules/vitest/vitest.mjs"), "");
    // As npm links file: dependencies: relative to the project.
    symlinkSync("../../checkout", join(from, "node_modules/kbts"));
    symlinkSync("../../../checkout/runtime", join(from, "node_modules/@kbts/runtime"));
    symlinkSync("../vitest/vitest.mjs", join(from, "node_modules/.bin/vitest"));
    mkdirSync(to, { recursive: true });
    copyNodeModules(from, to);
    expect(realpathSync(join(to, "node_modules/kbts"))).toBe(realpathSync(checkout));
    expect(realpathSync(join(to, "node_modules/@kbts/runtime"))).toBe(
      realpathSync(join(checkout, "runtime")),
    );
    expect(readlinkSync(join(to, "node_modules/.bin/vitest"))).toBe("../vitest/vitest.mjs");
    expect(realpathSync(join(to, "node_modules/.bin/vitest"))).toBe(
      realpathSync(join(to, "node_modules/vitest/vitest.mjs")),
    );
  });

  it("names the lockfiles' root package after the project it is copied into", () => {
    const from = join(work, "lock-a");
    const to = join(work, "lock-b");
    for (const dir of [from, to]) mkdirSync(join(dir, "node_modules"), { recursive: true });
    writeFileSync(join(to, "package.json"), JSON.stringify({ name: "memcached" }));
    const lock = {
      name: "gpubudget",
      lockfileVersion: 3,
      packages: { "": { name: "gpubudget" }, "node_modules/x": {} },
    };
    writeFileSync(join(from, "package-lock.json"), JSON.stringify(lock));
    writeFileSync(join(from, "node_modules/.package-lock.json"), JSON.stringify(lock));
    copyLockfiles(from, to);
    for (const file of ["package-lock.json", "node_modules/.package-lock.json"]) {
      const copied = JSON.parse(readFileSync(join(to, file), "utf8"));
      expect(copied.name).toBe("memcached");
      expect(copied.packages[""].name).toBe("memcached");
      expect(Object.keys(copied.packages)).toEqual(["", "node_modules/x"]);
    }
  });
});
