import { describe, expect, it } from "vitest";
import { formatProject, PROJECT_HEADER, parseProject, upsertResource } from "./config.js";

describe("PROJECT", () => {
  it("writes Kubebuilder's v3 format: header, sorted keys, omitted empties, quoted version", () => {
    const text = formatProject({
      version: "3",
      repo: "example.com/memcached",
      projectName: "memcached",
      layout: ["typescript.kbts.dev/v1"],
      domain: "example.com",
      multigroup: false,
      resources: [
        {
          version: "v1alpha1",
          kind: "Memcached",
          group: "cache",
          domain: "example.com",
          api: { namespaced: true, crdVersion: "v1" },
          controller: true,
          webhooks: {},
        },
      ],
    });
    expect(text).toBe(`${PROJECT_HEADER}domain: example.com
layout:
- typescript.kbts.dev/v1
projectName: memcached
repo: example.com/memcached
resources:
- api:
    crdVersion: v1
    namespaced: true
  controller: true
  domain: example.com
  group: cache
  kind: Memcached
  version: v1alpha1
version: "3"
`);
    expect(parseProject(text).resources?.[0]?.kind).toBe("Memcached");
  });

  it("reports bad YAML with its line and an unsupported version", () => {
    expect(() => parseProject("domain: a\nlayout: [\n")).toThrow(/PROJECT is not valid YAML/);
    expect(() => parseProject("domain: a\n  bad: : x\n")).toThrow(
      expect.objectContaining({ where: expect.stringMatching(/^PROJECT:\d+:\d+$/) }),
    );
    expect(() => parseProject('version: "2"\n')).toThrow(/version "2" is not supported/);
  });

  it("merges a webhook into an existing resource entry", () => {
    const config = parseProject(`${PROJECT_HEADER}resources:
- api:
    crdVersion: v1
  group: cache
  kind: Memcached
  version: v1
version: "3"
`);
    upsertResource(config, {
      group: "cache",
      version: "v1",
      kind: "Memcached",
      webhooks: { validation: true },
    });
    expect(config.resources).toHaveLength(1);
    expect(config.resources?.[0]).toMatchObject({
      api: { crdVersion: "v1" },
      webhooks: { validation: true },
    });
  });
});
