import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compareStrings } from "../compare.js";
import { isCrd } from "../crd/types.js";
import { KbtsError } from "../errors.js";
import { DEFAULT_CRD_OUTPUT } from "../manifests/defaults.js";
import { readManifestObjects } from "../yaml/read.js";

/**
 * `kbts migrate-storage`: after a kind's storage version changes (create webhook --conversion moves
 * it to the hub), rewrites every stored object of the CRD in the new storage version and leaves only
 * that version in status.storedVersions, with @kbts/runtime's migrateStorageVersion, against the
 * cluster of the kubeconfig.
 */

export interface MigrateStorageFlags {
  /** CRD names (<plural>.<group>); default: every CRD of config/crd/bases that serves several versions. */
  crds?: string[];
  /** A kubeconfig file; default KUBECONFIG, then ~/.kube/config. */
  kubeconfig?: string;
}

export interface MigratedCrd {
  crd: string;
  storageVersion: string;
  objects: number;
  rewritten: number;
  storedVersionsBefore: string[];
  storedVersions: string[];
}

const CRD_DIR = DEFAULT_CRD_OUTPUT;

/** The CRDs of config/crd/bases that serve more than one version (the only ones with anything to migrate). */
export function multiVersionCrds(root: string): string[] {
  const dir = join(root, CRD_DIR);
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".yaml") || f.endsWith(".yml"));
  } catch {
    throw new KbtsError(`${CRD_DIR} does not exist`, {
      where: CRD_DIR,
      fix: "run make manifests first, or name the CRD with --crd <plural>.<group>",
    });
  }
  const names: string[] = [];
  for (const file of files.sort(compareStrings)) {
    const rel = `${CRD_DIR}/${file}`;
    const text = readFileSync(join(dir, file), "utf8");
    for (const crd of readManifestObjects(text, rel, { fix: "correct the YAML, or run make manifests" })) {
      if (isCrd(crd) && crd.metadata?.name && (crd.spec?.versions?.length ?? 0) > 1) {
        names.push(crd.metadata.name);
      }
    }
  }
  return names;
}

export async function runMigrateStorage(dir: string, flags: MigrateStorageFlags): Promise<MigratedCrd[]> {
  const root = resolve(dir);
  const crds = flags.crds?.length ? flags.crds : multiVersionCrds(root);
  if (crds.length === 0) {
    throw new KbtsError(`no CRD in ${CRD_DIR} serves more than one version: nothing to migrate`, {
      where: CRD_DIR,
      fix: "name the CRD with --crd <plural>.<group>",
    });
  }
  const { loadKubeConfig, migrateStorageVersion, StorageMigrationError } = await import("@kbts/runtime");
  let kubeConfig: ReturnType<typeof loadKubeConfig>;
  try {
    kubeConfig = loadKubeConfig({ path: flags.kubeconfig });
  } catch (err) {
    throw new KbtsError(err instanceof Error ? err.message : String(err), {
      where: flags.kubeconfig ? "--kubeconfig" : "KUBECONFIG",
      fix: "point KUBECONFIG (or --kubeconfig) at the cluster whose objects to migrate",
    });
  }
  const results: MigratedCrd[] = [];
  for (const crd of crds) {
    try {
      results.push(await migrateStorageVersion({ kubeConfig, crd }));
    } catch (err) {
      if (err instanceof StorageMigrationError) {
        throw new KbtsError(err.message, {
          where: `CustomResourceDefinition ${crd}`,
          fix: "fix or delete the objects named (often: the conversion webhook refuses them), then run make migrate-storage again",
        });
      }
      throw new KbtsError(`migrating ${crd}: ${err instanceof Error ? err.message : String(err)}`, {
        where: `CustomResourceDefinition ${crd}`,
        fix: "install the CRD and run the operator that serves its conversion webhook (make deploy), with KUBECONFIG naming that cluster",
      });
    }
  }
  return results;
}

/** What the command prints for one CRD. */
export function describeMigration(m: MigratedCrd): string {
  return `${m.crd}: ${m.objects} object(s) read, ${m.rewritten} rewritten in ${m.storageVersion}; status.storedVersions [${m.storedVersionsBefore.join(", ")}] -> [${m.storedVersions.join(", ")}]`;
}
