import { fileURLToPath } from "node:url";
import { globSync } from "tinyglobby";
import { expect, it } from "vitest";
import { createFakeClient } from "./index.js";

// Every CRD `kbts manifests` is expected to generate (the markers parity cases) must load in the
// fake: its schema compiles and each CEL rule parses with the CEL library the fake uses.
const markers = fileURLToPath(new URL("../../../testdata/markers", import.meta.url));

it("loads every CRD of the manifests parity cases", { timeout: 120_000 }, () => {
  const files = globSync("*/expected/config/crd/bases/*.yaml", { cwd: markers, absolute: true });
  expect(files.length).toBeGreaterThan(0);
  const failed: string[] = [];
  for (const file of files) {
    try {
      createFakeClient({ crdDirectoryPaths: [file] });
    } catch (err) {
      failed.push(`${file}: ${(err as Error).message}`);
    }
  }
  expect(failed).toEqual([]);
});
