import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTree } from "../../testdata/golden.js";
import { runCreateApi, runCreateWebhook, runInit } from "../commands/index.js";
import { BUILTIN_KINDS } from "./builtin-kinds.js";

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbts-validate-"));
  await runInit(dir, { domain: "example.com", repo: "example.com/memcached", runtime: "registry" });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const api = { group: "cache", version: "v1", kind: "Memcached" };

async function refused(action: () => Promise<unknown>, where: string, message: RegExp): Promise<void> {
  const before = readTree(dir);
  await expect(action()).rejects.toMatchObject({ where, message: expect.stringMatching(message) });
  expect(readTree(dir)).toEqual(before);
}

describe("create refuses what the API server or the compiler would refuse", () => {
  it("the core group (its name is empty) and built-in groups, saying how to reconcile a built-in kind", async () => {
    await refused(
      () => runCreateApi(dir, { group: "core", version: "v1", kind: "Pod" }),
      "--group",
      /built-in Kubernetes group/,
    );
    await refused(
      () => runCreateApi(dir, { group: "apps", version: "v1", kind: "Deployment" }),
      "--group",
      /built-in Kubernetes group/,
    );
  });

  it("a kind whose plural is longer than 63 characters", async () => {
    await refused(
      () => runCreateApi(dir, { ...api, kind: `A${"b".repeat(62)}` }),
      "--kind",
      /is 64 characters; the API server allows at most 63/,
    );
  });

  it("a group that with the domain is longer than a DNS subdomain", async () => {
    const domain = Array.from({ length: 4 }, () => "d".repeat(60)).join(".");
    writeFileSync(
      join(dir, "PROJECT"),
      readFileSync(join(dir, "PROJECT"), "utf8").replace("domain: example.com", `domain: ${domain}`),
    );
    await refused(
      () => runCreateApi(dir, { ...api, group: "cachegroup" }),
      "--group",
      /not a DNS-1123 subdomain of at most 253/,
    );
  });

  // A kind named like a global (Promise, Request...) is not refused: src/plugins/global-kinds.test.ts.
  it.each(["Manager", "Condition", "ObjectMeta", "Result", "Reconciler", "Client"])(
    "a kind named %s, which collides with a name the generated code imports",
    async (kind) => {
      await refused(() => runCreateApi(dir, { ...api, kind }), "--kind", new RegExp(`kind ${kind} makes`));
    },
  );

  it("a second kind with a plural that is taken", async () => {
    await runCreateApi(dir, { ...api, plural: "caches" });
    await refused(
      () => runCreateApi(dir, { ...api, kind: "Other", plural: "caches" }),
      "--plural",
      /plural "caches" is already the resource name of kind Memcached/,
    );
  });

  it("a webhook for a built-in kind the runtime does not know, with a suggestion", async () => {
    await refused(
      () => runCreateWebhook(dir, { group: "apps", version: "v1", kind: "Deploymnt", defaulting: true }),
      "--kind",
      /apps\/v1 Deploymnt is not a built-in kind/,
    );
    await expect(
      runCreateWebhook(dir, { group: "apps", version: "v1", kind: "Deploymnt", defaulting: true }),
    ).rejects.toMatchObject({
      fix: expect.stringContaining("did you mean --group apps --version v1 --kind Deployment?"),
    });
  });

  it("spells the runtime's built-in groups as the command line does", () => {
    const group = (kind: string) => BUILTIN_KINDS.find((k) => k.kind === kind)?.group;
    expect([group("Pod"), group("Deployment"), group("Ingress"), group("ClusterRole")]).toEqual([
      "core",
      "apps",
      "networking",
      "rbac.authorization",
    ]);
  });
});

describe("PROJECT values are checked when it is read", () => {
  const edit = (from: RegExp | string, to: string) =>
    writeFileSync(join(dir, "PROJECT"), readFileSync(join(dir, "PROJECT"), "utf8").replace(from, to));

  it("a resource entry without kind is a located error, not a crash", async () => {
    await runCreateApi(dir, api);
    edit(/^ {2}kind: Memcached\n/m, "");
    await refused(
      () => runCreateApi(dir, { ...api, kind: "Other" }),
      "PROJECT:12",
      /resources\[0\] has no kind/,
    );
  });

  it.each([
    [
      "domain: example.com",
      "domain: Not_A_Domain",
      "PROJECT:6",
      /domain: domain "Not_A_Domain" is not a DNS-1123 subdomain/,
    ],
    [
      "repo: example.com/memcached",
      'repo: "x\\"; evil"',
      "PROJECT:10",
      /repo: --repo .* is not a module path/,
    ],
    ["projectName: ", "projectName: Bad_", "PROJECT:9", /projectName: project name/],
  ])("%s edited to %s", async (from, to, where, message) => {
    edit(from, to);
    await refused(() => runCreateApi(dir, api), where, message);
  });
});
