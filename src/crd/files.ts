import { KbtsError } from "../errors.js";
import { nodeWhere } from "../ts/where.js";
import type { BuiltCrd } from "./build.js";
import type { CustomResourceDefinition } from "./types.js";

/**
 * The CRD files of a run, `<dir>/<group>_<plural>.yaml` → CRD, in build order. Two kinds with one
 * group and plural are one CRD name, and the API server would keep only one: that is an error (pushed
 * to `errors`, at the second kind) and the second kind gets no file.
 */
export function crdFiles(
  root: string,
  dir: string,
  built: readonly BuiltCrd[],
  errors: KbtsError[],
): Map<string, CustomResourceDefinition> {
  const kinds = new Map<string, string>();
  const files = new Map<string, CustomResourceDefinition>();
  for (const { crd, versions } of built) {
    const name = `${crd.spec.names.plural}.${crd.spec.group}`;
    const other = kinds.get(name);
    if (other !== undefined && other !== crd.spec.names.kind) {
      const decl = [...versions.values()][0]?.decl;
      errors.push(
        new KbtsError(`kinds ${other} and ${crd.spec.names.kind} both make the CRD ${name}`, {
          ...(decl ? { where: nodeWhere(root, decl) } : {}),
          fix: "give one of them another plural: // +kubebuilder:resource:path=<plural>",
        }),
      );
      continue;
    }
    kinds.set(name, crd.spec.names.kind);
    files.set(`${dir}/${crd.spec.group}_${crd.spec.names.plural}.yaml`, crd);
  }
  return files;
}
