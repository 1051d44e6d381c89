import { t } from "../markers/args.js";
import { defineMarker, type MarkerDefinition } from "../markers/registry.js";

/** A reason is the point of accepting a break: an empty one is refused where it is written. */
function reason(args: unknown): string {
  const text = typeof args === "string" ? args.trim() : "";
  if (text === "") throw new Error('needs a reason, e.g. ="v1alpha1 has no users yet"');
  return text;
}

/**
 * `+kbts:breaking:accept="reason"` on a field or type: `kbts manifests --breaking-since` reports the
 * breaking changes at that node (and those of fields removed from it) as accepted, with the reason,
 * instead of failing. On a root kind's type it also accepts the CRD's own changes (scope, versions).
 */
export const breakingAccept = defineMarker<string>({
  name: "kbts:breaking:accept",
  targets: ["field", "type"],
  args: { kind: "value", type: t.string },
  help: "accept the breaking changes at this field or type on purpose (kbts manifests --breaking-since); the reason is required and printed",
  convert: reason,
});

/**
 * `+kbts:breaking:migration="note"` on the root type of the new storage version: how objects stored
 * in the previous storage version are migrated (without one, a storage version change is a break).
 */
export const storageMigration = defineMarker<string>({
  name: "kbts:breaking:migration",
  targets: ["type"],
  args: { kind: "value", type: t.string },
  help: "on the new storage version's root type: how objects stored in the old storage version are migrated (kbts manifests --breaking-since)",
  convert: reason,
});

export const breakingMarkers: MarkerDefinition[] = [breakingAccept, storageMigration];
