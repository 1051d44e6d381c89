import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { manifestFiles, parseDocuments, readDocuments } from "./manifests.js";

describe("the manifest reader", () => {
  it("gives each document with the line it starts on, skipping empty ones", () => {
    const text = "a: 1\n---\n# only a comment\n---\n\nkind: B\n";
    expect(parseDocuments(text, "m.yaml")).toEqual([
      { doc: { a: 1 }, where: "m.yaml:1" },
      { doc: { kind: "B" }, where: "m.yaml:6" },
    ]);
  });

  it("names file:line:col of a syntax error, through the caller's error type", () => {
    class Mine extends Error {}
    const fail = (m: string) => new Mine(m);
    expect(() => parseDocuments("a: 1\n---\nb: c: d\n", "m.yaml", fail)).toThrow(Mine);
    expect(() => parseDocuments("a: 1\n---\nb: c: d\n", "m.yaml")).toThrow(
      /^m\.yaml:3:4: invalid YAML: Nested mappings/,
    );
  });

  it("refuses a document that is not an object, naming its line", () => {
    expect(() => parseDocuments("a: 1\n---\n- x\n", "m.yaml")).toThrow(
      "m.yaml:3: expected a Kubernetes object, found a list",
    );
  });

  it("lists a directory's manifests sorted, and a missing path as the caller says", () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-manifests-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "b.yaml"), "kind: B\n");
    writeFileSync(join(dir, "a.json"), '{"kind": "A"}');
    writeFileSync(join(dir, "notes.txt"), "not a manifest");
    mkdirSync(join(dir, "sub.yaml"));
    const missing = join(dir, "nope");
    expect(manifestFiles([dir, missing])).toEqual([join(dir, "a.json"), join(dir, "b.yaml")]);
    expect(() => manifestFiles([missing], (p) => new Error(`no ${p}`))).toThrow(`no ${missing}`);
    expect(readDocuments(join(dir, "b.yaml"))).toEqual([
      { doc: { kind: "B" }, where: `${join(dir, "b.yaml")}:1` },
    ]);
  });
});
