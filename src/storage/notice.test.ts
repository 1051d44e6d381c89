import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TESTDATA } from "../../testdata/golden.js";
import { runManifests } from "../manifests/command.js";
import { storageVersionOfCrd } from "./notice.js";

const CRD = "config/crd/bases/cache.example.com_memcacheds.yaml";
let dir: string | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("kbts manifests when the storage version moves", () => {
  it("reads a CRD's storage version from the emitted YAML", () => {
    const text = readFileSync(join(TESTDATA, "project-multiversion", CRD), "utf8");
    expect(storageVersionOfCrd(text)).toBe("v1");
    expect(storageVersionOfCrd("kind: ClusterRole\n")).toBeUndefined();
  });

  it("says so, with the migration step, when a hand edit moves +kubebuilder:storageversion", async () => {
    dir = mkdtempSync(join(tmpdir(), "kbts-storage-notice-"));
    cpSync(join(TESTDATA, "project-multiversion"), dir, { recursive: true });
    const marker = "// +kubebuilder:storageversion\n";
    const v1 = join(dir, "api/v1/memcached_types.ts");
    const v2 = join(dir, "api/v2/memcached_types.ts");
    writeFileSync(v1, readFileSync(v1, "utf8").replace(marker, ""));
    writeFileSync(
      v2,
      readFileSync(v2, "utf8").replace(
        "// +kubebuilder:object:root=true\n// +kubebuilder:subresource:status\n",
        `// +kubebuilder:object:root=true\n${marker}// +kubebuilder:subresource:status\n`,
      ),
    );
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    await runManifests({ cache: false }, dir);
    expect(storageVersionOfCrd(readFileSync(join(dir, CRD), "utf8"))).toBe("v2");
    expect(out.join("")).toContain(
      "memcacheds.cache.example.com: the storage version changes from v1 to v2. Objects a cluster stored as v1 stay so until rewritten: once this CRD is installed and the operator serves /convert, run make migrate-storage",
    );
    // The next run has nothing to say.
    out.length = 0;
    await runManifests({ cache: false }, dir);
    expect(out.join("")).not.toContain("storage version changes");
  }, 120_000);
});
