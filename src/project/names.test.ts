import { describe, expect, it } from "vitest";
import { fnv32a, qualifiedGroup, validateGroup, validateKind, validateVersion } from "./names.js";

describe("validation", () => {
  it.each(["Memcached", "GPUBudget", "V2Thing"])("accepts kind %s", (k) =>
    expect(() => validateKind(k)).not.toThrow(),
  );
  it.each(["memcached", "Mem-cached", "Mem_cached", "9Lives", ""])("rejects kind %j naming --kind", (k) =>
    expect(() => validateKind(k)).toThrow(/kind .* must be PascalCase/),
  );
  it.each(["cache", "my-group", "a.b"])("accepts group %s", (g) =>
    expect(() => validateGroup(g)).not.toThrow(),
  );
  it.each(["Cache", "-cache", "ca_che", "a..b", ""])("rejects group %j", (g) =>
    expect(() => validateGroup(g)).toThrow(/not a DNS-1123 subdomain/),
  );
  it.each(["v1", "v1alpha1", "v2beta3", "v10"])("accepts version %s", (v) =>
    expect(() => validateVersion(v)).not.toThrow(),
  );
  it.each(["1", "v0", "V1", "v1alpha", "v1gamma1", "v1.0"])("rejects version %j", (v) =>
    expect(() => validateVersion(v)).toThrow(/not a Kubernetes API version/),
  );
});

describe("names", () => {
  it("qualifies groups with the domain, and the core group with nothing", () => {
    expect(qualifiedGroup("cache", "example.com")).toBe("cache.example.com");
    expect(qualifiedGroup("core", "")).toBe("");
    expect(qualifiedGroup("cache", "")).toBe("cache");
  });

  it("hashes a stable leader-election prefix", () => {
    expect(fnv32a("")).toBe("811c9dc5");
    expect(fnv32a("a")).toBe("e40c292c");
  });
});
