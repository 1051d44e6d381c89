/**
 * The local webhook development loop (kubebuilder#4477): a manager started with `make run` against a
 * control plane on this machine installs its webhook configurations pointing at itself, trusting its
 * self-signed certificate, and removes them again when it stops.
 */
import { existsSync } from "node:fs";
import {
  CustomResourceDefinition,
  MutatingWebhookConfiguration,
  ValidatingWebhookConfiguration,
} from "../api/kinds.js";
import { isAlreadyExists, isConflict, isNotFound } from "../client/errors.js";
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

/** A CRD's spec.conversion when a webhook converts its versions. */
export interface WebhookConversion {
  strategy?: string;
  webhook?: {
    clientConfig?: { url?: string; service?: { path?: string; [k: string]: unknown }; caBundle?: string };
    conversionReviewVersions?: string[];
  };
}

/**
 * spec.conversion for webhook conversion at a local server: the URL keeps a service's path (the
 * scaffold's is /convert), the caBundle is caCert, and conversionReviewVersions defaults to v1.
 */
export function localConversion(current: unknown, base: string, caCert: string): WebhookConversion {
  const webhook = (current as WebhookConversion | undefined)?.webhook;
  const [pointed] = pointAtLocalServer(
    [{ clientConfig: { service: { path: webhook?.clientConfig?.service?.path ?? "/convert" } } }],
    base,
    caCert,
  );
  return {
    strategy: "Webhook",
    webhook: {
      clientConfig: pointed?.clientConfig,
      conversionReviewVersions: webhook?.conversionReviewVersions ?? ["v1"],
    },
  };
}

/** A CRD whose conversion pointConversionsAtLocalServer changed, to put back. */
export interface LocalConversion {
  crd: string;
}

// The conversion a CRD had before `make run` pointed it here, kept on the CRD itself, so a run that
// was killed (and could not restore it) does not make the next run take the dead local URL for the original.
const ORIGINAL_CONVERSION = "kbts.dev/conversion-before-local-run";

/**
 * Points the conversion webhook of the CRDs of these group-kinds at a local server (the `make run`
 * loop: installed CRDs name the in-cluster Service), remembering the original in an annotation for
 * restoreConversions. CRDs not installed are skipped.
 */
export async function pointConversionsAtLocalServer(options: {
  client: Client;
  groupKinds: { group: string; kind: string }[];
  host: string;
  port: number;
  caCert: string;
}): Promise<LocalConversion[]> {
  if (options.groupKinds.length === 0) return [];
  const base = localServingURL(options.host, options.port);
  const changed: LocalConversion[] = [];
  for (const crd of await options.client.list(CustomResourceDefinition)) {
    const spec = crd.spec;
    if (!spec || !options.groupKinds.some((gk) => gk.group === spec.group && gk.kind === spec.names.kind))
      continue;
    const name = crd.metadata?.name ?? "";
    await updateCRD(options.client, name, (current) => {
      const annotations = { ...current.metadata?.annotations };
      annotations[ORIGINAL_CONVERSION] ??= JSON.stringify(current.spec?.conversion ?? { strategy: "None" });
      return {
        ...current,
        metadata: { ...current.metadata, annotations },
        spec: {
          ...spec,
          ...current.spec,
          conversion: localConversion(current.spec?.conversion, base, options.caCert),
        },
      } as CustomResourceDefinition;
    });
    changed.push({ crd: name });
  }
  return changed;
}

/** Puts back the conversion settings pointConversionsAtLocalServer replaced; a CRD gone is fine. */
export async function restoreConversions(client: Client, changed: LocalConversion[]): Promise<void> {
  for (const { crd } of changed) {
    await updateCRD(client, crd, (current) => {
      const { [ORIGINAL_CONVERSION]: original, ...annotations } = current.metadata?.annotations ?? {};
      if (original === undefined || !current.spec) return undefined;
      return {
        ...current,
        metadata: { ...current.metadata, annotations },
        spec: { ...current.spec, conversion: JSON.parse(original) as Record<string, unknown> },
      };
    });
  }
}

/** Read-modify-write of one CRD, retried on conflicts; nothing when it is gone or change returns undefined. */
async function updateCRD(
  client: Client,
  name: string,
  change: (crd: CustomResourceDefinition) => CustomResourceDefinition | undefined,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    let crd: CustomResourceDefinition;
    try {
      crd = await client.get(CustomResourceDefinition, { name });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const next = change(crd);
    if (!next) return;
    try {
      await client.update(CustomResourceDefinition, next);
      return;
    } catch (err) {
      if (!isConflict(err) || attempt >= 5) throw err;
    }
  }
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
  // The YAML parser only for this (make run on a local control plane), not in every manager.
  const { readDocuments } = await import("../internal/manifests.js");
  const base = localServingURL(options.host, options.port);
  const installed: InstalledWebhookConfiguration[] = [];
  for (const file of files) {
    for (const { doc, where } of readDocuments(file)) {
      const obj = doc as WebhookConfiguration;
      if (obj.kind !== "ValidatingWebhookConfiguration" && obj.kind !== "MutatingWebhookConfiguration")
        continue;
      const kind = KINDS[obj.kind] as typeof ValidatingWebhookConfiguration;
      const name = obj.metadata?.name;
      if (!name) throw new Error(`${where}: a ${obj.kind} without metadata.name`);
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
