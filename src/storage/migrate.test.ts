import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TESTDATA } from "../../testdata/golden.js";
import { multiVersionCrds, runMigrateStorage } from "./migrate.js";

// The cluster side is e2e/conversion.test.ts (make migrate-storage on a local control plane).
describe("kbts migrate-storage", () => {
  it("migrates every CRD of config/crd/bases that serves several versions", () => {
    expect(multiVersionCrds(join(TESTDATA, "project-multiversion"))).toEqual([
      "memcacheds.cache.example.com",
    ]);
    expect(multiVersionCrds(join(TESTDATA, "project-crontab"))).toEqual([]);
  });

  it("names the file and line of a CRD file that is not valid YAML", () => {
    const root = mkdtempSync(join(tmpdir(), "kbts-migrate-"));
    try {
      mkdirSync(join(root, "config/crd/bases"), { recursive: true });
      writeFileSync(
        join(root, "config/crd/bases/x.yaml"),
        "---\nkind: CustomResourceDefinition\nkind: Twice\n",
      );
      expect(() => multiVersionCrds(root)).toThrow(
        expect.objectContaining({ where: "config/crd/bases/x.yaml:3:1" }),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("says what to do when there is nothing to migrate or no CRDs, before touching a cluster", async () => {
    await expect(runMigrateStorage(join(TESTDATA, "project-crontab"), {})).rejects.toThrow(
      /no CRD in config\/crd\/bases serves more than one version/,
    );
    const empty = mkdtempSync(join(tmpdir(), "kbts-migrate-"));
    try {
      await expect(runMigrateStorage(empty, {})).rejects.toThrow(/config\/crd\/bases does not exist/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  // Loading @kbts/runtime takes seconds on a busy machine.
  it("names the kubeconfig it could not load", { timeout: 60_000 }, async () => {
    await expect(
      runMigrateStorage(join(TESTDATA, "project-multiversion"), { kubeconfig: "/nonexistent/kubeconfig" }),
    ).rejects.toMatchObject({ where: "--kubeconfig", message: expect.stringMatching(/does not exist/) });
  });
});
