import type { MarkerWarning } from "../markers/parse.js";

/**
 * Client-side `kubectl apply` stores the whole object in the last-applied-configuration annotation,
 * and annotations are limited to 256 KiB together (kubebuilder#1140, #2556): a larger CRD fails to
 * install that way, while server-side apply (the scaffold's `make install`) keeps no such copy.
 */
export const CLIENT_SIDE_APPLY_LIMIT = 262_144;

/** A warning when a generated CRD file exceeds what client-side apply can install. */
export function crdSizeWarning(file: string, crdName: string, content: string): MarkerWarning | undefined {
  const bytes = Buffer.byteLength(content, "utf8");
  if (bytes <= CLIENT_SIDE_APPLY_LIMIT) return undefined;
  // Only here: the first toLocaleString starts Intl, ~25 ms of every cold `kbts manifests` on Node 20.
  const n = (x: number) => x.toLocaleString("en-US");
  return {
    where: file,
    message:
      `the CRD ${crdName} is ${n(bytes)} bytes, over the ${n(CLIENT_SIDE_APPLY_LIMIT)}-byte limit of client-side apply's ` +
      "last-applied-configuration annotation: `kubectl apply -f` (without --server-side) fails on it. " +
      "Install it with server-side apply (`make install` does: kubectl apply --server-side), " +
      "or make it smaller (shorter field comments, fewer versions, +kubebuilder:validation:Schemaless on large embedded types); " +
      "not an error with --strict, as server-side apply installs it",
  };
}
