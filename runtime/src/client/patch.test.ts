import { describe, expect, it } from "vitest";
import type { ConfigMap } from "../api/core.js";
import { errorFromResponse } from "./errors.js";
import { createMergePatch, jsonPatch, mergeFrom, mergePatch, patchContentType } from "./patch.js";
import { retryOnConflict } from "./retry.js";

describe("mergeFrom", () => {
  const original: ConfigMap = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "c", namespace: "n", resourceVersion: "42", labels: { a: "1", b: "2" } },
    data: { keep: "x", drop: "y", change: "old" },
  };

  it("computes an RFC 7386 patch: changed and added members, null for removed ones", () => {
    const modified = structuredClone(original);
    delete modified.data!.drop;
    modified.data!.change = "new";
    modified.data!.add = "z";
    modified.metadata!.labels = { a: "1" };
    expect(mergeFrom(original, modified).data).toEqual({
      metadata: { labels: { b: null } },
      data: { drop: null, change: "new", add: "z" },
    });
  });

  it("replaces lists whole and is empty when nothing changed", () => {
    expect(createMergePatch({ l: [1, 2] }, { l: [1, 3] })).toEqual({ l: [1, 3] });
    expect(mergeFrom(original, structuredClone(original)).data).toEqual({});
  });

  it("pins the original resourceVersion with optimisticLock", () => {
    const modified = { ...original, data: { keep: "x" } };
    expect(mergeFrom(original, modified, { optimisticLock: true }).data.metadata).toEqual({
      resourceVersion: "42",
    });
    expect(() => mergeFrom({ metadata: { name: "x" } }, {}, { optimisticLock: true })).toThrow(
      /resourceVersion/,
    );
  });

  it("maps patch types to content types", () => {
    expect(patchContentType(mergePatch({}).type)).toBe("application/merge-patch+json");
    expect(patchContentType(jsonPatch([]).type)).toBe("application/json-patch+json");
    expect(patchContentType("strategic")).toBe("application/strategic-merge-patch+json");
    expect(patchContentType("apply")).toBe("application/apply-patch+yaml");
  });
});

describe("retryOnConflict", () => {
  const conflict = () =>
    errorFromResponse(409, JSON.stringify({ kind: "Status", code: 409, reason: "Conflict" }));

  it("retries conflicts and returns the first success", async () => {
    let calls = 0;
    const out = await retryOnConflict(async () => {
      calls++;
      if (calls < 3) throw conflict();
      return "ok";
    });
    expect(out).toBe("ok");
    expect(calls).toBe(3);
  });

  it("gives up after 5 attempts with the last conflict", async () => {
    let calls = 0;
    await expect(
      retryOnConflict(async () => {
        calls++;
        throw conflict();
      }),
    ).rejects.toMatchObject({ code: 409 });
    expect(calls).toBe(5);
  });

  it("does not retry other errors", async () => {
    let calls = 0;
    await expect(
      retryOnConflict(async () => {
        calls++;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(calls).toBe(1);
  });
});
