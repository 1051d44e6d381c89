import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KBTS_ROOT } from "../version.js";
import { kbtsInstall, tarballName } from "./pack.js";

const dir = mkdtempSync(join(tmpdir(), "kbts-pack-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("packaging", () => {
  it("names tarballs as npm pack does", () => {
    expect(tarballName({ name: "@kbts/runtime", version: "0.1.0" })).toBe("kbts-runtime-0.1.0.tgz");
    expect(tarballName({ name: "kbts", version: "1.2.3-rc.1" })).toBe("kbts-1.2.3-rc.1.tgz");
  });

  it("tells a checkout (runtime/ and src/ beside package.json) from an installed package", () => {
    expect(kbtsInstall(KBTS_ROOT)).toBe("checkout");
    const installed = join(dir, "lib/node_modules/kbts");
    mkdirSync(join(installed, "dist"), { recursive: true });
    writeFileSync(join(installed, "package.json"), '{"name":"kbts","version":"0.1.0"}');
    // Published with `npm publish`: no runtime tarball inside.
    expect(kbtsInstall(installed)).toBe("registry");
    // Installed from `make dist`'s tarball, which carries the runtime tarball in vendor/.
    mkdirSync(join(installed, "vendor"));
    writeFileSync(join(installed, "vendor/kbts-runtime-0.1.0.tgz"), "");
    expect(kbtsInstall(installed)).toBe("tarball");
  });
});
