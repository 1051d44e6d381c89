import { basename } from "node:path";
import type { CustomResourceDefinition } from "../api/core.js";
import { sleepUnlessAborted } from "../internal/sleep.js";
import { EnvtestError } from "./errors.js";
import { manifestFiles, readDocuments, type SourcedDoc } from "./manifests.js";
import { type RawClient, statusMessage } from "./rest.js";

type CRDSpec = NonNullable<CustomResourceDefinition["spec"]>;
type CRDVersion = CRDSpec["versions"][number];
type Loose<T> = T & { [key: string]: unknown };

/**
 * A CustomResourceDefinition as envtest takes it: the fields envtest reads (group, names, each
 * version's name and served) typed as the runtime's CustomResourceDefinition (api/core.ts) types
 * them; everything else is sent as is, so a test may hand over a CRD written as a plain literal.
 */
export type CustomResourceDefinitionLike = Loose<{
  apiVersion?: string;
  kind?: string;
  metadata: Loose<{ name?: string }>;
  spec: Loose<{
    group: CRDSpec["group"];
    names: Loose<Pick<CRDSpec["names"], "plural" | "kind">>;
    versions: Loose<Pick<CRDVersion, "name" | "served">>[];
  }>;
}>;

const KUSTOMIZE_FILES = new Set(["kustomization.yaml", "kustomization.yml", "kustomizeconfig.yaml"]);
const CRD_API_VERSION = "apiextensions.k8s.io/v1";
const CRDS_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/**
 * Reads the CRDs under paths. Unlike envtest, which skips anything else silently, a document that is not a
 * CRD is an error (a wrong directory is the usual cause); Kustomization files are skipped.
 */
export function readCRDs(
  paths: string[],
  errorIfPathMissing: boolean,
): { crd: CustomResourceDefinitionLike; where: string }[] {
  const out: { crd: CustomResourceDefinitionLike; where: string }[] = [];
  for (const file of manifestFiles(paths, "CRD", errorIfPathMissing)) {
    if (KUSTOMIZE_FILES.has(basename(file))) continue;
    for (const sourced of readDocuments(file)) {
      if (sourced.doc.kind === "Kustomization") continue;
      out.push({ crd: checkCRD(sourced), where: sourced.where });
    }
  }
  return out;
}

export function checkCRD({ doc, where }: SourcedDoc): CustomResourceDefinitionLike {
  if (doc.kind !== "CustomResourceDefinition") {
    const what = typeof doc.kind === "string" ? `a ${doc.kind}` : "an object without kind";
    throw new EnvtestError(`${where}: ${what}, not a CustomResourceDefinition`, {
      fix: "point it at a directory of CRD manifests only, such as config/crd/bases",
    });
  }
  if (doc.apiVersion !== CRD_API_VERSION) {
    throw new EnvtestError(`${where}: CustomResourceDefinition has apiVersion ${String(doc.apiVersion)}`, {
      fix: `use apiVersion: ${CRD_API_VERSION}`,
    });
  }
  const spec = doc.spec as Partial<CustomResourceDefinitionLike["spec"]> | undefined;
  if (!spec?.group || !spec.names?.kind || !spec.names.plural || !Array.isArray(spec.versions)) {
    throw new EnvtestError(
      `${where}: CustomResourceDefinition lacks spec.group, spec.names or spec.versions`,
    );
  }
  return doc as CustomResourceDefinitionLike;
}

export function crdName(crd: CustomResourceDefinitionLike): string {
  return crd.metadata?.name ?? `${crd.spec.names.plural}.${crd.spec.group}`;
}

/** Creates each CRD, or updates it when it exists (retrying on conflicts). */
export async function installCRDs(
  rest: RawClient,
  crds: { crd: CustomResourceDefinitionLike; where: string }[],
): Promise<void> {
  // The last definition of a name wins, as in envtest.
  const byName = new Map(crds.map((c) => [crdName(c.crd), c]));
  for (const [name, { crd, where }] of byName) {
    const body = { ...crd, apiVersion: CRD_API_VERSION, kind: "CustomResourceDefinition" };
    let res = await rest.call("POST", CRDS_PATH, body);
    for (let attempt = 0; res.status === 409 && attempt < 5; attempt++) {
      const existing = await rest.call("GET", `${CRDS_PATH}/${name}`);
      const rv = (existing.body as { metadata?: { resourceVersion?: string } } | undefined)?.metadata
        ?.resourceVersion;
      res = await rest.call("PUT", `${CRDS_PATH}/${name}`, {
        ...body,
        metadata: { ...crd.metadata, resourceVersion: rv },
      });
    }
    if (res.status >= 300) {
      throw new EnvtestError(
        `${where}: the API server rejected CustomResourceDefinition ${name}: ${statusMessage(res)}`,
      );
    }
  }
}

/**
 * Waits until discovery lists every served version's plural (envtest does not check Established; the
 * resource being in discovery is what clients need).
 */
export async function waitForCRDs(
  rest: RawClient,
  crds: CustomResourceDefinitionLike[],
  timeoutMs = 10_000,
  pollMs = 100,
): Promise<void> {
  const pending = new Set<string>();
  const plurals = new Map<string, Set<string>>();
  for (const crd of crds) {
    for (const v of crd.spec.versions) {
      if (!v.served) continue;
      const gv = `${crd.spec.group}/${v.name}`;
      pending.add(gv);
      plurals.set(gv, (plurals.get(gv) ?? new Set()).add(crd.spec.names.plural));
    }
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const gv of [...pending]) {
      const res = await rest.call("GET", `/apis/${gv}`);
      const listed = new Set(
        ((res.body as { resources?: { name: string }[] })?.resources ?? []).map((r) => r.name),
      );
      if ([...(plurals.get(gv) ?? [])].every((p) => listed.has(p))) pending.delete(gv);
    }
    if (pending.size === 0) return;
    if (Date.now() > deadline) {
      throw new EnvtestError(
        `CRDs not served after ${timeoutMs}ms: ${[...pending].join(", ")} missing from discovery`,
      );
    }
    await sleepUnlessAborted(pollMs);
  }
}
