import type { Scaffold } from "../../scaffold/scaffold.js";

/** The Makefile's insertion point for plugins' targets (templates/typescript/init/Makefile.hbs). */
export const MAKEFILE_TARGETS_MARKER = "makefile-targets";

/**
 * Adds targets to the project's Makefile: a fragment template rendered with `data`, inserted at the
 * `# +kubebuilder:scaffold:makefile-targets` point (end of the Deployment section), once. The one way
 * every plugin adds Makefile targets; a fragment ends with a blank line, to stand apart from the next.
 */
export function addMakefileFragment(scaffold: Scaffold, template: string, data: object): void {
  const fragment = scaffold.fragment(template, data).replace(/\n$/, "");
  scaffold.insert("Makefile", { [MAKEFILE_TARGETS_MARKER]: [fragment] });
}
