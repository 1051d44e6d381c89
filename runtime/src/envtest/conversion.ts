/**
 * CRD conversion in envtest: CRDs whose versions are converted by a webhook are pointed at the test's
 * local webhook server (https://host:port/convert, trusting its CA), as envtest does for convertible
 * types; admission configurations get the same treatment in webhooks.ts.
 */
import type { Kind } from "../api/kind.js";
import { localConversion, localServingURL, type WebhookConversion } from "../webhookcerts/local.js";
import { type CustomResourceDefinitionLike, crdName } from "./crds.js";
import { manifestFiles, readDocuments } from "./manifests.js";
import type { InstalledWebhooks, WebhookInstallOptions } from "./webhooks.js";

/**
 * The CRD names that documents under webhookInstallOptions.paths switch to webhook conversion: the
 * scaffold's config/crd/patches/webhook_in_<plural>.yaml (a partial CRD, applied by kustomize and so
 * absent from config/crd/bases).
 */
export function readConversionPatches(options: WebhookInstallOptions): Set<string> {
  const names = new Set<string>();
  for (const file of manifestFiles(options.paths ?? [], "webhook", !options.ignoreErrorIfPathMissing)) {
    for (const { doc } of readDocuments(file)) {
      const name = (doc.metadata as { name?: unknown } | undefined)?.name;
      const conversion = (doc.spec as { conversion?: WebhookConversion } | undefined)?.conversion;
      if (
        doc.kind === "CustomResourceDefinition" &&
        typeof name === "string" &&
        conversion?.strategy === "Webhook"
      ) {
        names.add(name);
      }
    }
  }
  return names;
}

/** The group-kinds webhookInstallOptions.conversions names ("Gadget.toys.kbts.dev"). */
function convertedGroupKinds(options: WebhookInstallOptions): Set<string> {
  return new Set(
    (options.conversions ?? []).map((c) => {
      const k: Kind = "hub" in c ? c.hub : c;
      return `${k.kind}.${k.group}`;
    }),
  );
}

/**
 * Which CRDs the local server converts: those already asking for webhook conversion, those a CRD patch
 * under paths switches to it, and those of the group-kinds in conversions.
 */
export function conversionCRDs(
  crds: CustomResourceDefinitionLike[],
  options: WebhookInstallOptions,
): Set<string> {
  const patched = readConversionPatches(options);
  const kinds = convertedGroupKinds(options);
  const out = new Set<string>();
  for (const crd of crds) {
    const strategy = (crd.spec.conversion as WebhookConversion | undefined)?.strategy;
    if (
      strategy === "Webhook" ||
      patched.has(crdName(crd)) ||
      kinds.has(`${crd.spec.names.kind}.${crd.spec.group}`)
    ) {
      out.add(crdName(crd));
    }
  }
  return out;
}

/** The CRD with its conversion webhook at the local server (see localConversion). */
export function pointConversionAtLocalServer(
  crd: CustomResourceDefinitionLike,
  serving: InstalledWebhooks,
): CustomResourceDefinitionLike {
  const base = localServingURL(serving.localServingHost, serving.localServingPort);
  return {
    ...crd,
    spec: { ...crd.spec, conversion: localConversion(crd.spec.conversion, base, serving.caData) },
  };
}
