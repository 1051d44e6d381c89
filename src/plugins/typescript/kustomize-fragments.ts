import type { Scaffold } from "../../scaffold/scaffold.js";

/**
 * The blocks config/default/kustomization.yaml's template renders commented (`{{fragment ...}}`) and
 * create webhook uncomments: rendered here from the same fragment with the same values, so the text
 * to uncomment cannot drift from what the template wrote.
 */
export const DEFAULT_KUSTOMIZATION_FRAGMENTS = "typescript/fragments/default-kustomization";

/** A commented block of config/default/kustomization.yaml, as its template rendered it. */
export function fragmentBlock(s: Scaffold, name: string, data: object): string {
  return s.fragment(`${DEFAULT_KUSTOMIZATION_FRAGMENTS}/${name}`, data).replace(/\n$/, "");
}
