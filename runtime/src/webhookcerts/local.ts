/**
 * The local webhook development loop (kubebuilder#4477): a manager started with `make run` against a
 * control plane on this machine installs its webhook configurations pointing at itself, trusting its
 * self-signed certificate, and removes them again when it stops.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from "../api/kinds.js";
import { isAlreadyExists, isNotFound } from "../client/errors.js";
import type { Client } from "../client/types.js";

/** Whether the API server URL names this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackServer(serverURL: string | undefined): boolean {
  if (!serverURL) return false;
  let host: string;
  try {
    host = new URL(serverURL).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The https://host:port base URL of a local webhook server (IPv6 hosts bracketed). */
export function localServingURL(host: string, port: number): string {
  return `https://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/**
 * Points each webhook that calls a Service at the same path on a local server instead, trusting caCert
 * (what envtest and the `make run` loop do with a project's generated configurations).
 */
export function pointAtLocalServer<W extends { clientConfig?: object }>(
  webhooks: W[],
  base: string,
  caCert: string,
): W[] {
  const caBundle = Buffer.from(caCert).toString("base64");
  return webhooks.map((w) => {
    const cc: Record<string, unknown> = { ...(w.clientConfig ?? {}) };
    const service = cc.service as { path?: string } | undefined;
    if (service) {
      cc.url = `${base}/${(service.path ?? "").replace(/^\//, "")}`;
      delete cc.service;
    }
    cc.caBundle = caBundle;
    return { ...w, clientConfig: cc };
  });
}

export interface LocalWebhookOptions {
  /** A client that writes to the API server (reads need not be cached). */
  client: Client;
  /** Webhook configuration manifests, e.g. config/webhook/manifests.yaml. */
  manifests: string[];
  /** Where the API server reaches this process. */
  host: string;
  port: number;
  /** The CA that signed the serving certificate (becomes each webhook's caBundle). */
  caCert: string;
}

type WebhookConfiguration = ValidatingWebhookConfiguration | MutatingWebhookConfiguration;
const KINDS = {
  ValidatingWebhookConfiguration,
  MutatingWebhookConfiguration,
} as const;

/** One installed configuration, to remove again. */
export interface InstalledWebhookConfiguration {
  kind: keyof typeof KINDS;
  name: string;
}

/** Creates (or replaces) the manifests' webhook configurations, pointed at host:port. */
export async function installLocalWebhooks(
  options: LocalWebhookOptions,
): Promise<InstalledWebhookConfiguration[]> {
  const files = options.manifests.filter((m) => existsSync(m));
  if (files.length === 0) {
    throw new Error(
      `no webhook configuration manifests at ${options.manifests.join(", ")}; run \`make manifests\` first`,
    );
  }
  const base = localServingURL(options.host, options.port);
  const installed: InstalledWebhookConfiguration[] = [];
  for (const file of files) {
    for (const doc of parseAllDocuments(readFileSync(file, "utf8"))) {
      if (doc.errors[0]) throw new Error(`${file}: invalid YAML: ${doc.errors[0].message.split("\n")[0]}`);
      const obj = doc.toJS() as WebhookConfiguration | null;
      if (obj?.kind !== "ValidatingWebhookConfiguration" && obj?.kind !== "MutatingWebhookConfiguration")
        continue;
      const kind = KINDS[obj.kind] as typeof ValidatingWebhookConfiguration;
      const name = obj.metadata?.name;
      if (!name) throw new Error(`${file}: a ${obj.kind} without metadata.name`);
      const body = {
        ...obj,
        metadata: {
          name,
          labels: { ...obj.metadata?.labels, "app.kubernetes.io/managed-by": "kbts-make-run" },
        },
        webhooks: pointAtLocalServer(obj.webhooks ?? [], base, options.caCert),
      } as ValidatingWebhookConfiguration;
      try {
        await options.client.create(kind, body);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        const existing = await options.client.get(kind, { name });
        await options.client.update(kind, {
          ...body,
          metadata: { ...body.metadata, resourceVersion: existing.metadata?.resourceVersion },
        });
      }
      installed.push({ kind: obj.kind, name });
    }
  }
  return installed;
}

/** Deletes what installLocalWebhooks installed; a configuration already gone is fine. */
export async function removeLocalWebhooks(
  client: Client,
  installed: InstalledWebhookConfiguration[],
): Promise<void> {
  for (const { kind, name } of installed) {
    try {
      await client.delete(KINDS[kind] as typeof ValidatingWebhookConfiguration, { name });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
