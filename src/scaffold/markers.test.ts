import { describe, expect, it } from "vitest";
import { insertAtMarkers, MissingMarkerError, organizeImports, uncomment } from "./markers.js";

const main = `import { a } from "@kbts/runtime";

// +kubebuilder:scaffold:imports

function f() {
  // +kubebuilder:scaffold:builder
}
`;

describe("insertAtMarkers", () => {
  it("puts each fragment just before its marker, verbatim", () => {
    const out = insertAtMarkers("cmd/main.ts", main, {
      imports: ['import { B } from "./b.js";'],
      builder: ["  b();"],
    });
    expect(out).toBe(`import { a } from "@kbts/runtime";

import { B } from "./b.js";
// +kubebuilder:scaffold:imports

function f() {
  b();
  // +kubebuilder:scaffold:builder
}
`);
  });

  it("is idempotent: a fragment already in the file is not added again", () => {
    const once = insertAtMarkers("cmd/main.ts", main, { builder: ["  if (x) {\n    b();\n  }"] });
    const twice = insertAtMarkers("cmd/main.ts", once, { builder: ["  if (x) {\n    b();\n  }"] });
    expect(twice).toBe(once);
    // Same first line, different body: a different fragment.
    const other = insertAtMarkers("cmd/main.ts", once, { builder: ["  if (x) {\n    c();\n  }"] });
    expect(other).toContain("c();");
  });

  it("uses # markers in YAML and fails when the marker is gone", () => {
    const yaml = "resources:\n# +kubebuilder:scaffold:crdkustomizeresource\n";
    expect(insertAtMarkers("k.yaml", yaml, { crdkustomizeresource: ["- bases/a.yaml"] })).toBe(
      "resources:\n- bases/a.yaml\n# +kubebuilder:scaffold:crdkustomizeresource\n",
    );
    expect(() => insertAtMarkers("k.yaml", "resources:\n", { crdkustomizeresource: ["- x"] })).toThrow(
      MissingMarkerError,
    );
    // A TypeScript-style marker does not count in YAML.
    expect(() => insertAtMarkers("k.yaml", "// +kubebuilder:scaffold:x\n", { x: ["- y"] })).toThrow(
      MissingMarkerError,
    );
  });
});

describe("uncomment", () => {
  it("uncomments an exact block once and leaves edited text alone", () => {
    const text = "resources:\n#- ../crd\n- ../rbac\n";
    const once = uncomment(text, "#- ../crd");
    expect(once).toBe("resources:\n- ../crd\n- ../rbac\n");
    expect(uncomment(once, "#- ../crd")).toBe(once);
    expect(uncomment("#-  ../crd\n", "#- ../crd")).toBe("#-  ../crd\n");
  });
});

describe("organizeImports", () => {
  it("sorts node:, packages, then relative paths into one block above the marker", () => {
    const text = `/*
license
*/

import { parseArgs } from "node:util";
import { m } from "@kbts/runtime";
import { Z } from "../internal/z.js";

import { A } from "../internal/a.js";
// +kubebuilder:scaffold:imports

code();
`;
    expect(organizeImports(text)).toBe(`/*
license
*/

import { parseArgs } from "node:util";
import { m } from "@kbts/runtime";
import { A } from "../internal/a.js";
import { Z } from "../internal/z.js";

// +kubebuilder:scaffold:imports

code();
`);
  });
});
