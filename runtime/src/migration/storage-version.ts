/**
 * Storage version migration for a CRD (what kube-storage-version-migrator does, for one CRD): after the
 * storage version changes, objects written before stay encoded in the old version in etcd until they
 * are written again, and the old version cannot leave status.storedVersions (nor the CRD) until then.
 */

import type { CustomResourceDefinition } from "../api/core.js";
import { defineKind, type Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { isConflict, isGone, isNotFound } from "../client/errors.js";
import type { KubeConfig } from "../client/kubeconfig.js";
import { queryString, resourcePath } from "../client/paths.js";
import { RestClient } from "../client/rest.js";
import { nopLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";

export interface StorageVersionMigrationOptions {
  kubeConfig: KubeConfig;
  /** The CRD's name, `<plural>.<group>`, e.g. "cronjobs.batch.tutorial.kubebuilder.io". */
  crd: string;
  /** Objects per list page (500). */
  pageSize?: number;
  /** How often one object's write is retried after a conflict (5). */
  maxConflictRetries?: number;
  logger?: Logger;
  signal?: AbortSignal;
}

export interface StorageVersionMigrationResult {
  crd: string;
  /** The version every object is now stored in. */
  storageVersion: string;
  /** Objects read and written back. */
  objects: number;
  /** Of those, the ones the API server re-encoded (the rest were stored in storageVersion already). */
  rewritten: number;
  /** status.storedVersions before and after. */
  storedVersionsBefore: string[];
  storedVersions: string[];
}

/** One object that could not be rewritten. */
export interface MigrationFailure {
  namespace?: string;
  name: string;
  message: string;
}

/** Some objects were not rewritten; status.storedVersions was left as it was. */
export class StorageMigrationError extends Error {
  override name = "StorageMigrationError";
  constructor(
    readonly crd: string,
    readonly storageVersion: string,
    readonly failures: MigrationFailure[],
    message?: string,
  ) {
    super(
      message ??
        `migrating CRD ${crd} to storage version ${storageVersion}: ${failures.length} object(s) could not be rewritten, so status.storedVersions is unchanged: ${failures
          .slice(0, 20)
          .map((f) => `${f.namespace ? `${f.namespace}/` : ""}${f.name} (${f.message})`)
          .join(
            "; ",
          )}${failures.length > 20 ? `; and ${failures.length - 20} more` : ""}. Fix or delete them and run the migration again`,
    );
  }
}

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const LIST_RESTARTS = 3;

interface ObjectList {
  items?: KubernetesObject[];
  metadata?: { continue?: string };
}

/**
 * Rewrites every stored object of a CRD in its current storage version (a read and an unchanged write
 * through the storage version, page by page, retrying conflicts), then sets status.storedVersions to
 * the storage version alone. If any object fails, throws StorageMigrationError naming them and leaves
 * storedVersions as it was, so a version still holding objects is never dropped.
 */
export async function migrateStorageVersion(
  options: StorageVersionMigrationOptions,
): Promise<StorageVersionMigrationResult> {
  const rest = new RestClient(options.kubeConfig, { userAgent: "kbts-storage-version-migration" });
  const log = (options.logger ?? nopLogger()).child({ crd: options.crd });
  const { signal } = options;
  const crdPath = `${CRDS}/${encodeURIComponent(options.crd)}`;
  const crd = await rest
    .request<CustomResourceDefinition>({ method: "GET", path: crdPath, signal })
    .catch((err) => {
      if (isNotFound(err)) {
        throw new Error(
          `CRD ${options.crd} is not installed on ${rest.server.origin}; install the CRDs first (make install) or check the name (<plural>.<group>)`,
        );
      }
      throw err;
    });
  const spec = crd.spec;
  if (!spec) throw new Error(`CRD ${options.crd} has no spec`);
  const storage = spec.versions.find((v) => v.storage)?.name;
  if (!storage) throw new Error(`CRD ${options.crd} has no version with storage: true`);
  const storedBefore = crd.status?.storedVersions ?? [];
  const kind = defineKind({
    group: spec.group,
    version: storage,
    kind: spec.names.kind,
    plural: spec.names.plural,
    namespaced: spec.scope === "Namespaced",
  });

  const counts = await rewriteAll(rest, kind, options, log);
  if (counts.failures.length > 0) throw new StorageMigrationError(options.crd, storage, counts.failures);

  const storedVersions = await setStoredVersions(rest, crdPath, options.crd, storage, signal);
  log.info(
    { storageVersion: storage, ...counts, failures: undefined, storedVersions },
    "storage version migrated",
  );
  return {
    crd: options.crd,
    storageVersion: storage,
    objects: counts.objects,
    rewritten: counts.rewritten,
    storedVersionsBefore: storedBefore,
    storedVersions,
  };
}

async function rewriteAll(
  rest: RestClient,
  kind: Kind,
  options: StorageVersionMigrationOptions,
  log: Logger,
): Promise<{ objects: number; rewritten: number; failures: MigrationFailure[] }> {
  const limit = options.pageSize ?? 500;
  const done = new Map<string, MigrationFailure | undefined>();
  let rewritten = 0;
  for (let restart = 0; ; restart++) {
    let cont: string | undefined;
    try {
      do {
        const page = await rest.request<ObjectList>({
          method: "GET",
          path: resourcePath(kind) + queryString({ limit, continue: cont }),
          signal: options.signal,
        });
        for (const obj of page.items ?? []) {
          const key = `${obj.metadata?.namespace ?? ""}/${obj.metadata?.name}`;
          if (done.has(key)) continue;
          const outcome = await rewrite(rest, kind, obj, options);
          if (outcome === "rewritten") rewritten++;
          done.set(
            key,
            typeof outcome === "object"
              ? {
                  namespace: obj.metadata?.namespace,
                  name: obj.metadata?.name ?? "",
                  message: outcome.message,
                }
              : undefined,
          );
        }
        cont = page.metadata?.continue || undefined;
      } while (cont);
      break;
    } catch (err) {
      // An expired continue token (410): list again from the start, skipping what is done.
      if (!isGone(err) || restart >= LIST_RESTARTS) {
        throw new StorageMigrationError(
          options.crd,
          kind.version,
          [...done.values()].filter((f): f is MigrationFailure => f !== undefined),
          `migrating CRD ${options.crd}: listing ${kind.plural} as ${kind.version} failed, so status.storedVersions is unchanged: ${(err as Error).message}`,
        );
      }
      log.info({ restart: restart + 1 }, "list continue token expired; listing again");
    }
  }
  const failures = [...done.values()].filter((f): f is MigrationFailure => f !== undefined);
  return { objects: done.size, rewritten, failures };
}

/** Writes one object back unchanged; on a conflict reads it again and retries. */
async function rewrite(
  rest: RestClient,
  kind: Kind,
  obj: KubernetesObject,
  options: StorageVersionMigrationOptions,
): Promise<"rewritten" | "unchanged" | "gone" | Error> {
  const path = resourcePath(kind, { namespace: obj.metadata?.namespace, name: obj.metadata?.name });
  let current = obj;
  for (let attempt = 0; ; attempt++) {
    try {
      const written = await rest.request<KubernetesObject>({
        method: "PUT",
        path,
        body: current,
        signal: options.signal,
      });
      return written.metadata?.resourceVersion === current.metadata?.resourceVersion
        ? "unchanged"
        : "rewritten";
    } catch (err) {
      if (isNotFound(err)) return "gone"; // deleted meanwhile: nothing left stored
      if (!isConflict(err) || attempt >= (options.maxConflictRetries ?? 5)) return err as Error;
      try {
        current = await rest.request<KubernetesObject>({ method: "GET", path, signal: options.signal });
      } catch (getErr) {
        if (isNotFound(getErr)) return "gone";
        return getErr as Error;
      }
    }
  }
}

/** Sets status.storedVersions to [storage], checking the storage version did not change meanwhile. */
async function setStoredVersions(
  rest: RestClient,
  crdPath: string,
  name: string,
  storage: string,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  for (let attempt = 0; ; attempt++) {
    const crd = await rest.request<CustomResourceDefinition>({ method: "GET", path: crdPath, signal });
    const now = crd.spec?.versions.find((v) => v.storage)?.name;
    if (now !== storage) {
      throw new StorageMigrationError(
        name,
        storage,
        [],
        `migrating CRD ${name}: its storage version changed from ${storage} to ${now} during the migration; run the migration again`,
      );
    }
    try {
      const updated = await rest.request<CustomResourceDefinition>({
        method: "PUT",
        path: `${crdPath}/status`,
        body: { ...crd, status: { ...crd.status, storedVersions: [storage] } },
        signal,
      });
      return updated.status?.storedVersions ?? [];
    } catch (err) {
      if (!isConflict(err) || attempt >= 5) throw err;
    }
  }
}
