/**
 * Webhook serving certificates without cert-manager (open-policy-agent/cert-controller's pattern): the
 * operator keeps a CA and a serving certificate for its webhook Service in a Secret, renews them before
 * they expire, writes the pair where its webhook server reads it, and sets the CA as the caBundle of
 * every webhook configuration, and of the conversion webhook of every CRD it is given, that calls that
 * Service. Replicas share the Secret; a write that loses a race (409) re-reads what the winner stored.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import {
  CustomResourceDefinition,
  MutatingWebhookConfiguration,
  Secret,
  ValidatingWebhookConfiguration,
} from "../api/kinds.js";
import { isAlreadyExists, isConflict, isForbidden, isNotFound } from "../client/errors.js";
import type { Client } from "../client/types.js";
import { sleepUnlessAborted } from "../internal/sleep.js";
import type { Logger } from "../log/types.js";
import { CertificateAuthority } from "../tls/certs.js";
import { writeServingFiles } from "../tls/selfsigned.js";
import type { WebhookConversion } from "./local.js";

export interface CertRotationOptions {
  /** The Secret holding ca.crt, ca.key, tls.crt and tls.key; created when missing. */
  secretName: string;
  /**
   * The Service in front of the webhook server: the certificate is for its DNS names, and every webhook
   * configuration whose clientConfig names it gets the CA as caBundle.
   */
  serviceName: string;
  /**
   * CRDs by name ("memcacheds.cache.example.com") whose conversion webhook gets the CA as caBundle when it
   * calls serviceName; default (through the manager): the CRDs of the kinds the manager converts at
   * /convert. They are read and updated by name only, never listed, so the RBAC can name them
   * (config/certrotation's ClusterRole); one not installed yet is looked for again on the next pass.
   */
  conversionCRDs?: string[];
  /** Namespace of the Secret and the Service; default: the service account's namespace (in a pod). */
  namespace?: string;
  /** Validity of the serving certificate (default one year); the CA lives ten times as long. */
  validityMs?: number;
  /** Renew when less than this is left (default a third of validityMs). */
  renewBeforeMs?: number;
  /** How often the certificate and the caBundles are checked (default one minute). */
  checkIntervalMs?: number;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;
const CA_NAME = "kbts-webhook-ca";
const CA_OPTIONS = { organizations: ["kbts"] };

interface StoredPair {
  caCert: string;
  caKey: string;
  cert: string;
  key: string;
}

export class CertRotator {
  readonly dnsNames: string[];
  private readonly validityMs: number;
  private readonly renewBeforeMs: number;

  constructor(
    private readonly client: Client,
    private readonly options: CertRotationOptions & { namespace: string },
    private readonly files: { dir: string; certName: string; keyName: string },
    private readonly log: Logger,
  ) {
    const { serviceName: svc, namespace: ns } = options;
    this.dnsNames = [`${svc}.${ns}.svc`, `${svc}.${ns}.svc.cluster.local`, svc, `${svc}.${ns}`];
    this.validityMs = options.validityMs ?? YEAR_MS;
    this.renewBeforeMs = options.renewBeforeMs ?? Math.floor(this.validityMs / 3);
  }

  /** One pass: a valid pair in the Secret (renewed if needed), written to the files, the CA injected. */
  async ensure(): Promise<void> {
    const pair = await this.ensureSecret();
    await writeServingFiles(this.files.dir, this.files, pair);
    await this.injectCABundles(pair.caCert);
  }

  /** ensure() now (retrying until it succeeds or the signal aborts), then every checkIntervalMs. */
  async run(signal: AbortSignal, onFirst: () => void): Promise<void> {
    let first = true;
    let delay = 500;
    while (!signal.aborted) {
      try {
        await this.ensure();
        if (first) onFirst();
        first = false;
        delay = this.options.checkIntervalMs ?? 60_000;
      } catch (err) {
        this.log.error(
          { err, secret: `${this.options.namespace}/${this.options.secretName}` },
          "webhook certificate rotation failed; retrying",
        );
        if (!first) delay = Math.min(this.options.checkIntervalMs ?? 60_000, 10_000);
        else delay = Math.min(delay * 2, 10_000);
      }
      await sleepUnlessAborted(delay, signal);
    }
  }

  private async ensureSecret(): Promise<StoredPair> {
    const key = { namespace: this.options.namespace, name: this.options.secretName };
    for (let attempt = 0; attempt < 5; attempt++) {
      let secret: Secret | undefined;
      try {
        secret = await this.client.get(Secret, key);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      const stored = secret ? decode(secret) : undefined;
      const problem = stored
        ? this.problemWith(stored)
        : secret
          ? "the Secret lacks ca.crt, ca.key, tls.crt or tls.key"
          : "no Secret yet";
      if (stored && !problem) return stored;
      const next = this.renew(stored, problem ?? "");
      const data = encode(next);
      try {
        if (secret) {
          await this.client.update(Secret, { ...secret, type: secret.type, data });
        } else {
          await this.client.create(Secret, {
            apiVersion: "v1",
            kind: "Secret",
            metadata: { ...key, labels: { "app.kubernetes.io/managed-by": "kbts-cert-rotator" } },
            type: "kubernetes.io/tls",
            data,
          });
        }
      } catch (err) {
        if (isConflict(err) || isAlreadyExists(err)) continue; // another replica won: use what it stored
        throw err;
      }
      this.log.info(
        { secret: `${key.namespace}/${key.name}`, reason: problem },
        "webhook serving certificate issued",
      );
      return next;
    }
    throw new Error(
      `Secret ${key.namespace}/${key.name} kept changing while renewing the webhook certificate`,
    );
  }

  /** Why the stored pair must be renewed, or undefined when it is good. */
  private problemWith(p: StoredPair): string | undefined {
    try {
      const ca = new X509Certificate(p.caCert);
      const leaf = new X509Certificate(p.cert);
      const now = Date.now();
      if (Date.parse(ca.validTo) - now < this.renewBeforeMs) return "the CA expires soon";
      if (Date.parse(leaf.validTo) - now < this.renewBeforeMs) return "the certificate expires soon";
      if (!leaf.checkPrivateKey(createPrivateKey(p.key))) return "tls.key does not match tls.crt";
      if (!leaf.verify(ca.publicKey)) return "tls.crt is not signed by ca.crt";
      const sans = (leaf.subjectAltName ?? "").split(", ");
      const missing = this.dnsNames.filter((n) => !sans.includes(`DNS:${n}`));
      if (missing.length > 0) return `the certificate does not cover ${missing.join(", ")}`;
      createPrivateKey(p.caKey);
      return undefined;
    } catch (err) {
      return `the stored certificate is unreadable: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  private renew(stored: StoredPair | undefined, problem: string): StoredPair {
    let ca: CertificateAuthority | undefined;
    let caCert = "";
    if (stored && !problem.startsWith("the CA") && !problem.startsWith("the stored")) {
      try {
        ca = CertificateAuthority.load(CA_NAME, { cert: stored.caCert, key: stored.caKey }, CA_OPTIONS);
        caCert = stored.caCert;
      } catch {
        ca = undefined;
      }
    }
    if (!ca) {
      ca = CertificateAuthority.create(CA_NAME, { ...CA_OPTIONS, validityMs: this.validityMs * 10 });
      // Until every replica serves a certificate from the new CA, the API server must trust both.
      caCert = ca.cert + (stored && stillValid(stored.caCert) ? firstCert(stored.caCert) : "");
    }
    const leaf = ca.issue({
      commonName: this.dnsNames[0] ?? this.options.serviceName,
      hosts: this.dnsNames,
      usage: "server",
      validityMs: this.validityMs,
    });
    return { caCert, caKey: ca.key, cert: leaf.cert, key: leaf.key };
  }

  /** Whether a clientConfig's service is this rotator's webhook Service. */
  private calls(service: { [field: string]: unknown } | undefined): boolean {
    return service?.name === this.options.serviceName && service.namespace === this.options.namespace;
  }

  private async injectCABundles(caCert: string): Promise<void> {
    const caBundle = Buffer.from(caCert).toString("base64");
    await this.injectWebhookConfigurations(caBundle);
    await this.injectConversions(caBundle);
  }

  private async injectWebhookConfigurations(caBundle: string): Promise<void> {
    for (const kind of [ValidatingWebhookConfiguration, MutatingWebhookConfiguration] as const) {
      for (const config of await this.client.list(kind)) {
        const hooks = (config.webhooks ?? []) as Array<{
          name: string;
          clientConfig: { service?: { name: string; namespace: string }; caBundle?: string };
        }>;
        const ours = (h: (typeof hooks)[number]) => this.calls(h.clientConfig.service);
        if (!hooks.some((h) => ours(h) && h.clientConfig.caBundle !== caBundle)) continue;
        const webhooks = hooks.map((h) =>
          ours(h) ? { ...h, clientConfig: { ...h.clientConfig, caBundle } } : h,
        );
        try {
          await this.client.update(
            kind as typeof ValidatingWebhookConfiguration,
            {
              ...config,
              webhooks,
            } as ValidatingWebhookConfiguration,
          );
        } catch (err) {
          if (isConflict(err)) continue; // changed meanwhile: the next pass sees the new version
          throw err;
        }
        this.log.info({ kind: kind.kind, name: config.metadata?.name }, "webhook caBundle injected");
      }
    }
  }

  /**
   * The caBundle of each named CRD whose conversion webhook calls the Service. A CRD the RBAC does not
   * let it read or write is logged, not fatal: the admission webhooks are served meanwhile.
   */
  private async injectConversions(caBundle: string): Promise<void> {
    for (const name of this.options.conversionCRDs ?? []) {
      try {
        const crd = await this.client.get(CustomResourceDefinition, { name });
        const conversion = crd.spec?.conversion as WebhookConversion | undefined;
        const webhook = conversion?.webhook;
        if (
          !crd.spec ||
          conversion?.strategy !== "Webhook" ||
          !this.calls(webhook?.clientConfig?.service) ||
          webhook?.clientConfig?.caBundle === caBundle
        ) {
          continue;
        }
        const clientConfig = { ...webhook?.clientConfig, caBundle };
        await this.client.update(CustomResourceDefinition, {
          ...crd,
          spec: { ...crd.spec, conversion: { ...conversion, webhook: { ...webhook, clientConfig } } },
        });
        this.log.info({ crd: name }, "conversion webhook caBundle injected");
      } catch (err) {
        if (isNotFound(err) || isConflict(err)) continue; // not installed yet, or changed: the next pass
        if (!isForbidden(err)) throw err;
        this.log.error(
          { err, crd: name },
          `cannot inject the conversion webhook's caBundle: grant get and update on customresourcedefinitions named ${name} (config/certrotation/cert_rotation_role.yaml, written by kbts create webhook --conversion)`,
        );
      }
    }
  }
}

function decode(secret: Secret): StoredPair | undefined {
  const d = secret.data ?? {};
  const get = (k: string) => (d[k] ? Buffer.from(d[k], "base64").toString() : "");
  const pair = { caCert: get("ca.crt"), caKey: get("ca.key"), cert: get("tls.crt"), key: get("tls.key") };
  return pair.caCert && pair.caKey && pair.cert && pair.key ? pair : undefined;
}

function encode(p: StoredPair): Record<string, string> {
  const b = (s: string) => Buffer.from(s).toString("base64");
  return { "ca.crt": b(p.caCert), "ca.key": b(p.caKey), "tls.crt": b(p.cert), "tls.key": b(p.key) };
}

function firstCert(bundle: string): string {
  const m = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(bundle);
  return m ? `${m[0].trimEnd()}\n` : "";
}

function stillValid(pem: string): boolean {
  try {
    return Date.parse(new X509Certificate(pem).validTo) > Date.now();
  } catch {
    return false;
  }
}
