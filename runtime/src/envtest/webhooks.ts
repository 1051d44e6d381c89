import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kind } from "../api/kind.js";
import type { Converter } from "../conversion/hubspoke.js";
import { sleepUnlessAborted } from "../internal/sleep.js";
import { CertificateAuthority } from "../tls/certs.js";
import { localServingURL, pointAtLocalServer } from "../webhookcerts/local.js";
import { EnvtestError } from "./errors.js";
import { manifestFiles, readDocuments } from "./manifests.js";
import { type RawClient, statusMessage } from "./rest.js";

export interface WebhookInstallOptions {
  /** Files or directories (non-recursive) holding Validating/MutatingWebhookConfiguration manifests. */
  paths?: string[];
  /** Configurations given as objects. */
  validatingWebhooks?: Record<string, unknown>[];
  mutatingWebhooks?: Record<string, unknown>[];
  /** Where the test's webhook server listens; default 127.0.0.1 and a free port. */
  localServingHost?: string;
  localServingPort?: number;
  ignoreErrorIfPathMissing?: boolean;
  /**
   * Kinds whose CRDs the local server converts (what envtest learns from the scheme's Hub/Convertible
   * types): their CRDs get webhook conversion at https://host:port/convert. CRDs that already ask for
   * webhook conversion, or that a CRD patch under paths (config/crd/patches) switches to it, get it too.
   */
  conversions?: Array<Converter | Kind>;
}

/** Where to point the webhook server (controller-runtime's WebhookInstallOptions after Install). */
export interface InstalledWebhooks {
  localServingHost: string;
  localServingPort: number;
  /** Holds tls.crt and tls.key, signed by caData's CA, valid for localhost and the host. */
  localServingCertDir: string;
  /** PEM of the CA the API server trusts for these webhooks. */
  caData: string;
}

const KINDS = {
  ValidatingWebhookConfiguration: "validatingwebhookconfigurations",
  MutatingWebhookConfiguration: "mutatingwebhookconfigurations",
} as const;
type WebhookKind = keyof typeof KINDS;

interface Pending {
  kind: WebhookKind;
  doc: Record<string, unknown>;
  where: string;
}

/** Reads webhook configurations; other documents (Service, kustomize files in config/webhook) are skipped. */
export function readWebhooks(options: WebhookInstallOptions): Pending[] {
  const out: Pending[] = [];
  for (const file of manifestFiles(options.paths ?? [], "webhook", !options.ignoreErrorIfPathMissing)) {
    for (const { doc, where } of readDocuments(file)) {
      if (doc.kind === "ValidatingWebhookConfiguration" || doc.kind === "MutatingWebhookConfiguration") {
        out.push({ kind: doc.kind, doc, where });
      }
    }
  }
  for (const doc of options.validatingWebhooks ?? []) {
    out.push({ kind: "ValidatingWebhookConfiguration", doc, where: "validatingWebhooks" });
  }
  for (const doc of options.mutatingWebhooks ?? []) {
    out.push({ kind: "MutatingWebhookConfiguration", doc, where: "mutatingWebhooks" });
  }
  return out;
}

/** Serving certs for the local webhook server, in a temp dir the caller removes. */
export function prepareWebhookServing(host: string, port: number): InstalledWebhooks {
  const ca = CertificateAuthority.create("envtest-webhook-ca");
  const hosts = [...new Set(["localhost", "127.0.0.1", host])];
  const pair = ca.issue({ commonName: "localhost", hosts, usage: "server" });
  const dir = mkdtempSync(join(tmpdir(), "envtest-serving-certs-"));
  writeFileSync(join(dir, "tls.crt"), pair.cert, { mode: 0o600 });
  writeFileSync(join(dir, "tls.key"), pair.key, { mode: 0o600 });
  return { localServingHost: host, localServingPort: port, localServingCertDir: dir, caData: ca.cert };
}

/** Points every webhook's clientConfig at the local server and trusts its CA, then creates the configurations. */
export async function installWebhooks(
  rest: RawClient,
  pending: Pending[],
  serving: InstalledWebhooks,
): Promise<void> {
  const base = localServingURL(serving.localServingHost, serving.localServingPort);
  const created: string[] = [];
  for (const { kind, doc, where } of pending) {
    const rewritten = pointAtLocalServer(
      (doc.webhooks as Record<string, unknown>[] | undefined) ?? [],
      base,
      serving.caData,
    );
    const body = { ...doc, apiVersion: "admissionregistration.k8s.io/v1", kind, webhooks: rewritten };
    const name = (doc.metadata as { name?: string } | undefined)?.name;
    const path = `/apis/admissionregistration.k8s.io/v1/${KINDS[kind]}`;
    let res = await rest.call("POST", path, body);
    if (res.status === 409 && name) {
      const existing = await rest.call("GET", `${path}/${name}`);
      const rv = (existing.body as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
      res = await rest.call("PUT", `${path}/${name}`, {
        ...body,
        metadata: { ...(doc.metadata as object), resourceVersion: rv },
      });
    }
    if (res.status >= 300) {
      throw new EnvtestError(
        `${where}: the API server rejected ${kind} ${name ?? ""}: ${statusMessage(res)}`,
      );
    }
    if (name) created.push(`${path}/${name}`);
  }
  // Wait until each configuration reads back, as envtest does.
  const deadline = Date.now() + 10_000;
  for (const p of created) {
    while ((await rest.call("GET", p)).status !== 200) {
      if (Date.now() > deadline) throw new EnvtestError(`webhook configuration ${p} not visible after 10s`);
      await sleepUnlessAborted(100);
    }
  }
}
