/**
 * Webhook certificates on a real API server: the `make run` loop (self-signed certificate, webhook
 * configurations installed pointing at the process on a local control plane, removed on stop) and the
 * cert-controller-style rotator (Secret, renewal, caBundle injection).
 */
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConfigMap,
  CustomResourceDefinition,
  Namespace,
  Secret,
  ValidatingWebhookConfiguration,
} from "../api/kinds.js";
import { validatingWebhookPath, webhookManagedBy } from "../builder/index.js";
import { createClient } from "../client/client.js";
import { isNotFound } from "../client/errors.js";
import type { Client } from "../client/types.js";
import { GadgetV1, gadgetCRD, gadgetV1alpha1Spoke, gadgetV2Spoke } from "../conversion/testdata/gadget.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import { createLogger } from "../log/logger.js";
import { createManager } from "../manager/index.js";
import { AdmissionDenied, type HttpsWebhookServer } from "../webhook/index.js";
import { CertRotator } from "./rotator.js";

/** A webhook configuration as `kbts manifests` writes it: the Service, no caBundle. */
function configuration(name: string, service: { name: string; namespace: string }) {
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    metadata: { name },
    webhooks: [
      {
        name: "vconfigmap-v1.kb.io",
        admissionReviewVersions: ["v1"],
        sideEffects: "None",
        failurePolicy: "Fail",
        clientConfig: { service: { ...service, path: validatingWebhookPath(ConfigMap) } },
        rules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] }],
        namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "default" } },
      },
    ],
  };
}

/** The Gadget CRD (toys.kbts.dev, or the same kind in another group) converted by a Service's /convert. */
function convertedCRD(service: { name: string; namespace: string }, group = "toys.kbts.dev") {
  const crd = gadgetCRD("v1", {
    strategy: "Webhook",
    webhook: {
      clientConfig: { service: { ...service, path: "/convert" } },
      conversionReviewVersions: ["v1"],
    },
  });
  return { ...crd, metadata: { name: `gadgets.${group}` }, spec: { ...crd.spec, group } };
}

/** The CA a CRD's conversion webhook trusts, as PEM ("" when it has none). */
async function conversionCA(name: string): Promise<string> {
  return caBundleOf(await client.get(CustomResourceDefinition, { name }));
}

/** The conversion webhook's caBundle of a CRD as read or written, decoded ("" when there is none). */
function caBundleOf(crd: CustomResourceDefinition): string {
  const webhook = (crd.spec?.conversion as { webhook?: { clientConfig?: { caBundle?: string } } })?.webhook;
  return Buffer.from(webhook?.clientConfig?.caBundle ?? "", "base64").toString();
}

const logger = createLogger({ level: "error" });
let env: Environment;
let client: Client;
let work: string;

beforeAll(async () => {
  env = await startEnvironment();
  client = createClient(env.kubeConfig);
  work = mkdtempSync(join(tmpdir(), "kbts-webhookcerts-"));
}, 60_000);

afterAll(async () => {
  await env?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("make run with webhooks and no certificate, on a local control plane", () => {
  it("serves a self-signed certificate, installs config/webhook pointing at itself, and removes it on stop", async () => {
    const manifests = join(work, "manifests.yaml");
    writeFileSync(
      manifests,
      JSON.stringify(
        configuration("validating-webhook-configuration", { name: "webhook-service", namespace: "system" }),
      ),
    );
    const mgr = createManager({
      kubeConfig: env.kubeConfig,
      metricsBindAddress: "0",
      healthProbeBindAddress: "0",
      logger,
      webhookServer: { port: 0, localManifests: [manifests] },
    });
    webhookManagedBy(mgr, ConfigMap)
      .withValidator({
        validateCreate: async (cm) => {
          if (cm.metadata?.name === "deny-me")
            throw new AdmissionDenied("config maps named deny-me are refused");
        },
        validateUpdate: async () => undefined,
        validateDelete: async () => undefined,
      })
      .complete();
    const stop = new AbortController();
    const running = mgr.start(stop.signal);
    try {
      const err = await eventually("the API server to call the local webhook", async () => {
        try {
          await client.create(ConfigMap, { metadata: { name: "deny-me", namespace: "default" } });
          await client.delete(ConfigMap, { name: "deny-me", namespace: "default" });
          return undefined;
        } catch (e) {
          return String(e).includes("refused") ? (e as Error) : undefined;
        }
      });
      expect(String(err)).toContain('admission webhook "vconfigmap-v1.kb.io" denied the request');
      const installed = await client.get(ValidatingWebhookConfiguration, {
        name: "validating-webhook-configuration",
      });
      expect(installed.webhooks?.[0]?.clientConfig.url).toMatch(
        /^https:\/\/127\.0\.0\.1:\d+\/validate--v1-configmap$/,
      );
      await client.create(ConfigMap, { metadata: { name: "allowed", namespace: "default" } });
    } finally {
      stop.abort();
      await running;
    }
    await expect(
      client.get(ValidatingWebhookConfiguration, { name: "validating-webhook-configuration" }),
    ).rejects.toSatisfy(isNotFound);
    await client.create(ConfigMap, { metadata: { name: "deny-me", namespace: "default" } });
  }, 60_000);
});

describe("self-managed webhook certificates (certRotation)", () => {
  const service = { name: "ops-webhook-service", namespace: "ops-system" };
  const dir = () => join(work, "rotated");

  it("issues the certificate into a Secret, writes the files and injects the CA into the configurations and conversion webhooks", async () => {
    await client.create(ValidatingWebhookConfiguration, configuration("ops-validating", service) as never);
    await client.create(
      ValidatingWebhookConfiguration,
      configuration("someone-else", { ...service, name: "other" }) as never,
    );
    await client.create(CustomResourceDefinition, convertedCRD(service));
    await client.create(
      CustomResourceDefinition,
      convertedCRD({ ...service, name: "other" }, "other.kbts.dev"),
    );
    await client.create(Namespace, { metadata: { name: service.namespace } });
    const rotator = new CertRotator(
      client,
      {
        secretName: "ops-webhook-cert",
        serviceName: service.name,
        namespace: service.namespace,
        // The second calls another Service; the third is not installed (yet).
        conversionCRDs: ["gadgets.toys.kbts.dev", "gadgets.other.kbts.dev", "widgets.toys.kbts.dev"],
      },
      { dir: dir(), certName: "tls.crt", keyName: "tls.key" },
      logger,
    );
    await rotator.ensure();
    const secret = await client.get(Secret, { name: "ops-webhook-cert", namespace: service.namespace });
    const caPem = Buffer.from(secret.data?.["ca.crt"] ?? "", "base64").toString();
    const leaf = new X509Certificate(readFileSync(join(dir(), "tls.crt")));
    expect(leaf.verify(new X509Certificate(caPem).publicKey)).toBe(true);
    expect(leaf.subjectAltName).toContain("DNS:ops-webhook-service.ops-system.svc");
    expect(Buffer.from(secret.data?.["tls.crt"] ?? "", "base64").toString()).toBe(
      readFileSync(join(dir(), "tls.crt"), "utf8"),
    );
    const ours = await client.get(ValidatingWebhookConfiguration, { name: "ops-validating" });
    expect(Buffer.from(ours.webhooks?.[0]?.clientConfig.caBundle ?? "", "base64").toString()).toBe(caPem);
    const theirs = await client.get(ValidatingWebhookConfiguration, { name: "someone-else" });
    expect(theirs.webhooks?.[0]?.clientConfig.caBundle).toBeUndefined();
    expect(await conversionCA("gadgets.toys.kbts.dev")).toBe(caPem);
    expect(await conversionCA("gadgets.other.kbts.dev")).toBe("");

    // A second replica (or a restart) reuses the stored pair instead of issuing another.
    await rotator.ensure();
    const again = await client.get(Secret, { name: "ops-webhook-cert", namespace: service.namespace });
    expect(again.data).toEqual(secret.data);
  });

  it("renews before expiry (the running server picks it up), re-injects a reset caBundle, replaces a deleted Secret", async () => {
    const secretKey = { name: "ops-short-cert", namespace: service.namespace };
    const mgr = createManager({
      kubeConfig: env.kubeConfig,
      metricsBindAddress: "0",
      healthProbeBindAddress: "0",
      logger,
      webhookServer: {
        port: 0,
        host: "127.0.0.1",
        // A fresh Secret: 20 s certificates, renewed when under 18.5 s are left, so every ~1.5 s.
        certRotation: {
          secretName: secretKey.name,
          serviceName: service.name,
          namespace: service.namespace,
          validityMs: 20_000,
          renewBeforeMs: 18_500,
          checkIntervalMs: 200,
        },
      },
    });
    const server = mgr.getWebhookServer() as HttpsWebhookServer;
    server.register("/ok", (_req, res) => void res.end("ok"));
    // No conversionCRDs given: the CRDs of the kinds the manager converts get the CA.
    webhookManagedBy(mgr, GadgetV1).withConversion(gadgetV1alpha1Spoke, gadgetV2Spoke).complete();
    const stop = new AbortController();
    const running = mgr.start(stop.signal);
    try {
      await server.started();
      const port = server.address()?.port ?? 0;
      const first = await servedCertificate(port, secretKey, service);
      expect(first.subjectAltName).toContain("DNS:ops-webhook-service.ops-system.svc");
      await eventually("the server to present a renewed certificate", async () => {
        const now = await servedCertificate(port, secretKey, service);
        return now.serialNumber !== first.serialNumber ? true : undefined;
      });

      const cfg = await client.get(ValidatingWebhookConfiguration, { name: "ops-validating" });
      const hook = cfg.webhooks?.[0];
      if (!hook) throw new Error("no webhook");
      await client.update(ValidatingWebhookConfiguration, {
        ...cfg,
        webhooks: [{ ...hook, clientConfig: { ...hook.clientConfig, caBundle: undefined } }],
      });
      await eventually("the caBundle re-injected", async () => {
        const c = await client.get(ValidatingWebhookConfiguration, { name: "ops-validating" });
        return c.webhooks?.[0]?.clientConfig.caBundle ? true : undefined;
      });
      const crd = await client.get(CustomResourceDefinition, { name: "gadgets.toys.kbts.dev" });
      const reset = await client.update(CustomResourceDefinition, {
        ...crd,
        spec: {
          ...(crd.spec as NonNullable<typeof crd.spec>),
          conversion: convertedCRD(service).spec.conversion,
        },
      });
      // The reset as stored (the update's answer), not a read after it: the rotator watches CRDs and
      // may already have put the caBundle back by the time a later read arrives.
      expect(caBundleOf(reset)).toBe("");
      await eventually("the conversion caBundle re-injected", async () =>
        (await conversionCA("gadgets.toys.kbts.dev")) ? true : undefined,
      );

      const before = await client.get(Secret, secretKey);
      await client.delete(Secret, before);
      const after = await eventually("a new Secret", async () => {
        const s = await client.get(Secret, secretKey);
        return s.metadata?.uid !== before.metadata?.uid ? s : undefined;
      });
      const newCA = Buffer.from(after.data?.["ca.crt"] ?? "", "base64").toString();
      expect(newCA).not.toBe(Buffer.from(before.data?.["ca.crt"] ?? "", "base64").toString());
      await eventually("the new CA injected and served", async () => {
        const c = await client.get(ValidatingWebhookConfiguration, { name: "ops-validating" });
        const injected = Buffer.from(c.webhooks?.[0]?.clientConfig.caBundle ?? "", "base64").toString();
        const converting = await conversionCA("gadgets.toys.kbts.dev");
        return injected.startsWith(newCA.trim()) &&
          converting === injected &&
          (await servedCertificate(port, secretKey, service))
          ? true
          : undefined;
      });
      expect(await conversionCA("gadgets.other.kbts.dev")).toBe("");
    } finally {
      stop.abort();
      await running;
    }
  }, 60_000);
});

/** The certificate the webhook server presents to a client that trusts only the Secret's CA and asks for the Service's name. */
async function servedCertificate(
  port: number,
  secretKey: { name: string; namespace: string },
  service: { name: string; namespace: string },
): Promise<X509Certificate> {
  const secret = await client.get(Secret, secretKey);
  const ca = Buffer.from(secret.data?.["ca.crt"] ?? "", "base64");
  return new Promise<X509Certificate>((resolve, reject) => {
    const socket = connect(
      { host: "127.0.0.1", port, ca, servername: `${service.name}.${service.namespace}.svc` },
      () => {
        const cert = socket.getPeerX509Certificate();
        socket.end();
        if (cert) resolve(cert);
        else reject(new Error("no peer certificate"));
      },
    );
    socket.on("error", reject);
  });
}
