import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTree } from "../../testdata/golden.js";
import { runAlphaGenerate } from "../commands/alpha-generate.js";
import { type CreateWebhookFlags, runCreateApi, runCreateWebhook, runInit } from "../commands/index.js";

const fixture = new URL("../../testdata/external-crds/cert-manager.io_certificates.yaml", import.meta.url)
  .pathname;

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbts-webhook-paths-"));
  await runInit(project(), { domain: "example.com", repo: "example.com/p", runtime: "registry" });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function project(): string {
  return join(dir, "p");
}
const read = (path: string) => readFileSync(join(project(), path), "utf8");
const memcached = { group: "cache", version: "v1alpha1", kind: "Memcached" };
const webhook = (flags: Partial<CreateWebhookFlags>) =>
  runCreateWebhook(project(), { ...memcached, ...flags });
const certificate = { group: "cert-manager", version: "v1", kind: "Certificate" };
const external = { externalApiPath: "hack/certificates.yaml", externalApiDomain: "io" };

/** Expects the command to fail with `message` and the project to be exactly as before. */
async function refused(action: () => Promise<unknown>, message: string): Promise<void> {
  const before = readTree(project());
  await expect(action()).rejects.toThrow(message);
  expect(readTree(project())).toEqual(before);
}

const replayed = async () => {
  const out = join(dir, "out");
  await runAlphaGenerate(dir, { inputDir: "p", outputDir: out, runtime: "registry" });
  expect(readTree(out)).toEqual(readTree(project()));
};

describe("create webhook --defaulting-path, --validation-path", () => {
  beforeEach(async () => {
    await runCreateApi(project(), memcached);
  });

  it("puts the paths in the markers, the registration, the e2e check and PROJECT", async () => {
    await webhook({
      defaulting: true,
      programmaticValidation: true,
      defaultingPath: "/custom-mutate",
      validationPath: "/custom-validate",
    });
    const code = read("internal/webhook/v1alpha1/memcached_webhook.ts");
    expect(code).toContain(
      "    .withValidator(new MemcachedCustomValidator())\n" +
        '    .withValidatorCustomPath("/custom-validate")\n' +
        "    .withDefaulter(new MemcachedCustomDefaulter())\n" +
        '    .withDefaulterCustomPath("/custom-mutate")\n' +
        "    .complete();",
    );
    expect(code).toContain("// +kubebuilder:webhook:path=/custom-mutate,mutating=true,");
    expect(code).toContain("// +kubebuilder:webhook:path=/custom-validate,mutating=false,");
    expect(code).not.toContain("/mutate-cache-example-com");
    const e2e = read("test/e2e/e2e.test.ts");
    expect(e2e).toContain(`'webhook="/custom-mutate"'`);
    expect(e2e).toContain(`'webhook="/custom-validate"'`);
    expect(read("PROJECT")).toContain(
      "  webhooks:\n    defaulting: true\n    defaultingPath: /custom-mutate\n    validation: true\n    validationPath: /custom-validate\n    webhookVersion: v1\n",
    );
  });

  it("leaves the generated path of a webhook type given no path", async () => {
    await webhook({ defaulting: true, programmaticValidation: true, validationPath: "/v" });
    const code = read("internal/webhook/v1alpha1/memcached_webhook.ts");
    expect(code).toContain("path=/mutate-cache-example-com-v1alpha1-memcached,mutating=true");
    expect(code).not.toContain("withDefaulterCustomPath");
    expect(read("PROJECT")).not.toContain("defaultingPath");
  });

  it("keeps PROJECT's path when a later --force run adds the other webhook type", async () => {
    await webhook({ defaulting: true, defaultingPath: "/custom-mutate" });
    await webhook({ programmaticValidation: true, force: true });
    const code = read("internal/webhook/v1alpha1/memcached_webhook.ts");
    expect(code).toContain('.withDefaulterCustomPath("/custom-mutate")');
    expect(code).toContain("path=/validate-cache-example-com-v1alpha1-memcached,mutating=false");
    expect(read("PROJECT")).toContain("    defaultingPath: /custom-mutate\n");
  });

  it("refuses a path without its webhook type, a path controller-runtime rejects, /convert, and taken paths", async () => {
    await refused(
      () => webhook({ programmaticValidation: true, defaultingPath: "/m" }),
      "--defaulting-path can only be used with --defaulting",
    );
    await refused(
      () => webhook({ defaulting: true, validationPath: "/v" }),
      "--validation-path can only be used with --programmatic-validation",
    );
    for (const bad of ["custom", "/custom/", "/a b", "/x?y=1", "//x"]) {
      await refused(
        () => webhook({ defaulting: true, defaultingPath: bad }),
        `--defaulting-path ${JSON.stringify(bad)} is not a webhook path`,
      );
    }
    await refused(
      () => webhook({ defaulting: true, defaultingPath: "/convert" }),
      "--defaulting-path /convert is where the webhook server serves conversion",
    );
    await refused(
      () =>
        webhook({
          defaulting: true,
          programmaticValidation: true,
          defaultingPath: "/same",
          validationPath: "/same",
        }),
      "--defaulting-path and --validation-path are both /same",
    );
    await runCreateApi(project(), { ...memcached, kind: "Cache" });
    await webhook({ kind: "Cache", defaulting: true, defaultingPath: "/taken" });
    await refused(
      () => webhook({ programmaticValidation: true, validationPath: "/taken" }),
      "--validation-path /taken is already the path of a webhook of cache/v1alpha1, Kind=Cache",
    );
  });

  it("is replayed by kbts alpha generate, file for file", async () => {
    await webhook({
      defaulting: true,
      programmaticValidation: true,
      defaultingPath: "/custom-mutate",
      validationPath: "/custom-validate",
    });
    await replayed();
  }, 60_000);
});

describe("create webhook for an external kind", () => {
  beforeEach(() => {
    mkdirSync(join(project(), "hack"), { recursive: true });
    copyFileSync(fixture, join(project(), "hack/certificates.yaml"));
  });

  it("scaffolds the webhook of a kind made by create api --external-api-path with the kind's own group", async () => {
    await runCreateApi(project(), { ...certificate, ...external, resource: false, controller: true });
    await runCreateWebhook(project(), { ...certificate, defaulting: true, programmaticValidation: true });
    const code = read("internal/webhook/v1/certificate_webhook.ts");
    expect(code).toContain(
      'import {\n  type Certificate,\n  CertificateKind,\n} from "../../../api/external/cert-manager.io/v1/certificate_types.js";',
    );
    expect(code).toContain("webhookManagedBy(mgr, CertificateKind)");
    expect(code).toContain(
      "// +kubebuilder:webhook:path=/mutate-cert-manager-io-v1-certificate,mutating=true,failurePolicy=fail,sideEffects=None,groups=cert-manager.io,resources=certificates,verbs=create;update,versions=v1,name=mcertificate-v1.kb.io,admissionReviewVersions=v1",
    );
    expect(code).toContain("path=/validate-cert-manager-io-v1-certificate,mutating=false");
    expect(read("internal/webhook/v1/certificate_webhook.test.ts")).toContain(
      'import type { Certificate } from "../../../api/external/cert-manager.io/v1/certificate_types.js";',
    );
    expect(read("cmd/main.ts")).toContain("setupCertificateWebhookWithManager(mgr);");
    expect(read("PROJECT")).toContain(
      "- controller: true\n  domain: io\n  external: true\n  group: cert-manager\n  kind: Certificate\n  path: ./hack/certificates.yaml\n  version: v1\n  webhooks:\n    defaulting: true\n    validation: true\n    webhookVersion: v1\n",
    );
    await replayed();
  }, 60_000);

  it("scaffolds it from --external-api-path alone, generating the types, and replays it", async () => {
    const result = await runCreateWebhook(project(), {
      ...certificate,
      ...external,
      programmaticValidation: true,
      validationPath: "/validate-certificates",
    });
    expect(result.written).toContain("api/external/cert-manager.io/v1/certificate_types.ts");
    expect(existsSync(join(project(), "internal/controller"))).toBe(false);
    expect(read("internal/webhook/v1/certificate_webhook.ts")).toContain(
      "// +kubebuilder:webhook:path=/validate-certificates,mutating=false,failurePolicy=fail,sideEffects=None,groups=cert-manager.io,",
    );
    expect(read("PROJECT")).toContain(
      "- domain: io\n  external: true\n  group: cert-manager\n  kind: Certificate\n  path: ./hack/certificates.yaml\n  version: v1\n  webhooks:\n    validation: true\n    validationPath: /validate-certificates\n",
    );
    await replayed();
  }, 60_000);

  it("refuses conversion for an external kind, and external flags for the project's own kind", async () => {
    await runCreateApi(project(), { ...certificate, ...external, resource: false, controller: true });
    await refused(
      () => runCreateWebhook(project(), { ...certificate, conversion: true, spoke: ["v1alpha2"] }),
      "Certificate is an external kind: conversion webhooks are for the project's own kinds",
    );
    await runCreateApi(project(), memcached);
    await refused(
      () => webhook({ defaulting: true, externalApiPath: "hack/certificates.yaml" }),
      "--external-api-path is for a kind defined outside the project; Memcached is the project's own",
    );
    await refused(
      () => webhook({ kind: "Gadget", defaulting: true }),
      "no API found for cache/v1alpha1, Kind=Gadget",
    );
  });
});
