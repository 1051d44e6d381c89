import { describe, expect, it } from "vitest";
import { KbtsError } from "../errors.js";
import { readManifestObjects, readYamlDocuments } from "./read.js";

describe("readYamlDocuments", () => {
  it("gives every non-empty document with the line it starts on", () => {
    const text = "---\na: 1\n---\n# only a comment\n---\n\nkind: B\nmetadata:\n  name: b\n";
    expect(readYamlDocuments(text, "x.yaml")).toEqual([
      { value: { a: 1 }, line: 2 },
      { value: { kind: "B", metadata: { name: "b" } }, line: 7 },
    ]);
  });

  it("reports a YAML error at file:line:col with the fix asked for", () => {
    const text = "a: 1\n---\nkind: B\nkind: C\n";
    let caught: unknown;
    try {
      readYamlDocuments(text, "config/crd/bases/x.yaml", { fix: "run make manifests" });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(KbtsError);
    const err = caught as KbtsError;
    expect(err.message).toMatch(/^not valid YAML: /);
    expect(err.where).toBe("config/crd/bases/x.yaml:4:1");
    expect(err.fix).toBe("run make manifests");
  });
});

describe("readManifestObjects", () => {
  it("keeps the documents that are mappings", () =>
    expect(readManifestObjects("- a\n---\nkind: A\n---\n3\n", "x.yaml")).toEqual([{ kind: "A" }]));
});
