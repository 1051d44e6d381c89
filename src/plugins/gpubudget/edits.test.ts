import { describe, expect, it } from "vitest";
import {
  addMakeTarget,
  addYamlListEntry,
  insertAfterLine,
  replaceBlock,
  replaceLineContaining,
} from "./edits.js";

describe("GPUBudget plugin edits", () => {
  it("inserts after an anchor once", () => {
    const once = insertAfterLine("a\n  options: {\nb", /^\s*options: \{$/, "  x: 1,");
    expect(once).toBe("a\n  options: {\n  x: 1,\nb");
    expect(insertAfterLine(once, /^\s*options: \{$/, "  x: 1,")).toBe(once);
    expect(() => insertAfterLine("a", /nope/, "x")).toThrow(/anchor/);
  });

  it("replaces a line, and only drops duplicates on a second run", () => {
    const once = replaceLineContaining(
      "a\n  new FooReconciler(c).setup(m);\nb",
      /new FooReconciler\(/,
      "  setupFoo();",
    );
    expect(once).toBe("a\n  setupFoo();\nb");
    expect(replaceLineContaining(once, /new FooReconciler\(/, "  setupFoo();")).toBe(once);
    expect(
      replaceLineContaining("import { FooReconciler } from 'x';\nz", /import \{ FooReconciler \}/, ""),
    ).toBe("z");
  });

  it("adds to a YAML list after its last item, or creates the list", () => {
    const y = "resources:\n- manifests.yaml\n- service.yaml\n\nconfigurations:\n- k.yaml\n";
    const once = addYamlListEntry(y, "resources", "- rules.yaml");
    expect(once).toBe(
      "resources:\n- manifests.yaml\n- service.yaml\n- rules.yaml\n\nconfigurations:\n- k.yaml\n",
    );
    expect(addYamlListEntry(once, "resources", "- rules.yaml")).toBe(once);
    expect(addYamlListEntry("resources:\n- a.yaml\n", "patches", "- path: p.yaml")).toBe(
      "resources:\n- a.yaml\npatches:\n- path: p.yaml\n",
    );
  });

  it("appends a Makefile target once", () => {
    const once = addMakeTarget("all: build\n", "check-rules", "Check rules.", "bash hack/check-rules.sh");
    expect(once).toBe(
      "all: build\n\n.PHONY: check-rules\ncheck-rules: ## Check rules.\n\tbash hack/check-rules.sh\n",
    );
    expect(addMakeTarget(once, "check-rules", "Check rules.", "x")).toBe(once);
  });

  it("replaces a block once, and drops it when a re-run wrote it back beside the replacement", () => {
    const once = replaceBlock("a\n  f();\nz\n", "  f();", "  await f(1);");
    expect(once).toBe("a\n  await f(1);\nz\n");
    expect(replaceBlock("a\n  await f(1);\n  f();\nz\n", "  f();", "  await f(1);")).toBe(once);
    expect(() => replaceBlock("a\n", "  f();", "  g();")).toThrow(/block not found/);
  });
});
