import { describe, expect, it } from "vitest";
import { findPlugin, registeredPlugins, resolvePlugins } from "./index.js";

describe("plugin registry", () => {
  it("finds plugins by full key and by short name/version, as Kubebuilder's --plugins", () => {
    expect(findPlugin("typescript.kbts.dev/v1").key).toBe("typescript.kbts.dev/v1");
    expect(findPlugin("typescript/v1").key).toBe("typescript.kbts.dev/v1");
    expect(findPlugin("gpu-budget/v1-alpha").key).toBe("gpu-budget.kbts.dev/v1-alpha");
    expect(resolvePlugins(["typescript/v1, gpu-budget/v1-alpha"]).map((p) => p.key)).toEqual([
      "typescript.kbts.dev/v1",
      "gpu-budget.kbts.dev/v1-alpha",
    ]);
  });

  it("names the known plugins when one is unknown", () => {
    expect(() => findPlugin("go/v4")).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/unknown plugin "go\/v4"/),
        fix: expect.stringContaining("typescript.kbts.dev/v1"),
        where: "--plugins",
      }),
    );
    expect(registeredPlugins().length).toBeGreaterThanOrEqual(2);
  });
});
