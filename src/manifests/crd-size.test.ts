import { describe, expect, it } from "vitest";
import { CLIENT_SIDE_APPLY_LIMIT, crdSizeWarning } from "./crd-size.js";
import { generateManifests } from "./generate.js";

const corpus = (name: string) => new URL(`../../testdata/markers/${name}`, import.meta.url).pathname;

describe("the CRD size gate", () => {
  it("warns with the file, the CRD, its size, the limit and what to do when a CRD is too large for client-side apply", async () => {
    // An embedded PodTemplateSpec makes a CRD of about 600 KB.
    const { files, warnings } = await generateManifests({ root: corpus("51-known-podtemplatespec") });
    const file = "config/crd/bases/podtemplate.kbts.test_batches.yaml";
    const size = Buffer.byteLength(files.get(file) ?? "");
    expect(size).toBeGreaterThan(CLIENT_SIDE_APPLY_LIMIT);
    expect(warnings).toEqual([
      {
        where: file,
        message: expect.stringContaining(
          `the CRD batches.podtemplate.kbts.test is ${size.toLocaleString("en-US")} bytes, over the 262,144-byte limit`,
        ),
      },
    ]);
    expect(warnings[0]?.message).toContain("kubectl apply --server-side");
  });

  it("says nothing up to the limit, and warns one byte past it", () => {
    expect(crdSizeWarning("a.yaml", "as.x", "x".repeat(CLIENT_SIDE_APPLY_LIMIT))).toBeUndefined();
    expect(crdSizeWarning("a.yaml", "as.x", "x".repeat(CLIENT_SIDE_APPLY_LIMIT + 1))?.where).toBe("a.yaml");
  });

  it("does not warn on an ordinary CRD", async () => {
    const { warnings } = await generateManifests({ root: corpus("01-basic") });
    expect(warnings).toEqual([]);
  });
});
