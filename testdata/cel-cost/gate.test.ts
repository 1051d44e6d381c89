/** The cost gate inside `kbts manifests`: the error stands at the rule's marker and names the missing bound. */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { generateManifests, type ManifestErrors } from "../../src/manifests/index.js";

describe("the cost gate of kbts manifests", () => {
  it("refuses the rule the API server would refuse, at its marker, naming the missing bound", async () => {
    const root = fileURLToPath(new URL("./project", import.meta.url));
    const err = (await generateManifests({ root }).catch((e: unknown) => e)) as ManifestErrors;
    expect(err.errors.map((e) => e.where)).toEqual(["api/v1/widget_types.ts:6:6"]);
    expect(err.format()).toContain("over the API server's per-rule budget of 10,000,000 by 6.3x");
    expect(err.format()).toContain("add maxLength on spec.names[*]");
  });
});
