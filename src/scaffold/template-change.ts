import { applyPatch, createPatch, structuredPatch } from "diff";

/**
 * Carries a template's change into a file the project may since have edited.
 *
 * A setting that changes what a template renders (e.g. `kbts edit --namespaced`) gives two renders of
 * the same template: `before` (what the file was scaffolded as) and `after` (what it would be now).
 * Their difference is applied to the file as a patch, so the user's own edits elsewhere in it (a
 * plugin's, or create api's insertions) stay. jsdiff's patch refuses when the lines it changes, or
 * their context, are no longer there: then the file is reported as a conflict, never overwritten.
 */
export type CarriedChange =
  | { outcome: "unchanged" }
  | { outcome: "applied"; text: string }
  | { outcome: "conflict"; patch: string };

export function carryTemplateChange(
  path: string,
  current: string,
  before: string,
  after: string,
): CarriedChange {
  if (before === after || current === after) return { outcome: "unchanged" };
  if (current === before) return { outcome: "applied", text: after };
  const applied = applyPatch(current, structuredPatch(path, path, before, after));
  if (applied === false) return { outcome: "conflict", patch: createPatch(path, before, after) };
  return applied === current ? { outcome: "unchanged" } : { outcome: "applied", text: applied };
}
