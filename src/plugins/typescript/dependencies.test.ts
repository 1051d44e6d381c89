import { describe, expect, it } from "vitest";
import { KbtsError } from "../../errors.js";
import { readPackageJson } from "../../packaging/pack.js";
import { KBTS_ROOT } from "../../version.js";
import { checkRuntimeSpec, defaultRuntimeMode, resolveDependencySpecs } from "./dependencies.js";

describe("where a scaffolded project gets kbts and @kbts/runtime", () => {
  it("defaults to what fits where kbts came from", () => {
    expect(defaultRuntimeMode("checkout")).toBe("link");
    expect(defaultRuntimeMode("tarball")).toBe("vendor");
    expect(defaultRuntimeMode("registry")).toBe("registry");
  });

  it("refuses to vendor tarballs a kbts from a registry does not carry, naming the flag and the fix", () => {
    expect(() => checkRuntimeSpec("vendor", "registry")).toThrow(KbtsError);
    expect(() => checkRuntimeSpec("vendor", "registry")).toThrow(/--runtime vendor .* came from a registry/);
    const link = (() => {
      try {
        checkRuntimeSpec("link", "registry");
      } catch (err) {
        return err;
      }
    })();
    expect(link).toBeInstanceOf(KbtsError);
    expect((link as KbtsError).format()).toMatch(
      /^--runtime: .*\n {2}fix: use --runtime registry \(the default\)/,
    );
    expect(() => checkRuntimeSpec("vendor", "tarball")).not.toThrow();
    expect(() => checkRuntimeSpec("registry", "registry")).not.toThrow();
    expect(() => checkRuntimeSpec(undefined, "registry")).not.toThrow();
  });

  it("--runtime registry names both packages by this kbts' version range, with nothing to vendor", () => {
    const range = `^${readPackageJson(KBTS_ROOT).version}`;
    expect(resolveDependencySpecs("registry")).toEqual({
      runtimeSpec: range,
      kbtsSpec: range,
      vendored: [],
    });
    expect(resolveDependencySpecs("~0.1.0")).toMatchObject({ runtimeSpec: "~0.1.0", kbtsSpec: "~0.1.0" });
  });
});
