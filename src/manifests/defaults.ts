import { isAbsolute, relative } from "node:path";

/**
 * `kbts manifests`' flag defaults, in one place: commander's option defaults, the cached fast path
 * (they are part of the cache entry's key), the generator and its readers of the CRD directory.
 */

/** Where CRDs go (--crd-output), as in Kubebuilder's Makefile (`output:crd:artifacts:config`). */
export const DEFAULT_CRD_OUTPUT = "config/crd/bases";

/** The name of the generated ClusterRole/Roles (--role-name). */
export const DEFAULT_ROLE_NAME = "manager-role";

/** The CRD directory relative to the project, as --crd-output names it (absolute or relative, any trailing slash). */
export function crdDirectory(root: string, crdOutput = DEFAULT_CRD_OUTPUT): string {
  return (isAbsolute(crdOutput) ? relative(root, crdOutput) : crdOutput).replace(/\/$/, "") || ".";
}
