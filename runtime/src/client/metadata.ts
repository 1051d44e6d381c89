/**
 * Metadata-only reads: the API server answers with PartialObjectMetadata(List) when asked for it in
 * the Accept header (client-go's metadata client), so specs and statuses never cross the wire.
 * Each media type ends with a plain application/json fallback for servers that cannot convert (some
 * aggregated APIs); what they send is cut down to metadata here.
 */

import { apiVersionOf, type Kind } from "../api/kind.js";
import type { KubernetesObject, PartialObjectMetadata } from "../api/meta.js";

/** Accept header for a get or a watch of a metadata-only kind. */
export const PARTIAL_OBJECT_METADATA_ACCEPT =
  "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";

/** Accept header for a list of a metadata-only kind. */
export const PARTIAL_OBJECT_METADATA_LIST_ACCEPT =
  "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

/** The Accept header a read of this kind sends: metadata-only kinds ask for PartialObjectMetadata. */
export function acceptFor(kind: Kind, what: "get" | "list" | "watch"): string | undefined {
  if (!kind.metadataOnly) return undefined;
  return what === "list" ? PARTIAL_OBJECT_METADATA_LIST_ACCEPT : PARTIAL_OBJECT_METADATA_ACCEPT;
}

/**
 * The PartialObjectMetadata of an object as it is stored and returned: only metadata, typed as the
 * object's own kind (the server sends meta.k8s.io/v1 PartialObjectMetadata; a full object from a
 * server that ignored the media type is cut down the same way).
 */
export function toPartialObjectMetadata(kind: Kind, obj: KubernetesObject): PartialObjectMetadata {
  return { apiVersion: apiVersionOf(kind), kind: kind.kind, metadata: obj.metadata ?? {} };
}

/** A create or update from metadata alone would wipe the object's spec or data: refused, saying what works. */
export function metadataOnlyWriteError(
  kind: Kind,
  verb: "create" | "update",
  name: string | undefined,
): Error {
  return new Error(
    `cannot ${verb} ${kind.kind} "${name ?? ""}" from its metadata only: use patch (e.g. a merge patch of labels), apply or delete with metadataOnly(${kind.kind}), or write the full ${kind.kind}`,
  );
}

/** What a read or write of `kind` returns: the object cut down to metadata for a metadata-only kind. */
export function asReadBy<T extends KubernetesObject>(kind: Kind<T>, obj: T): T {
  return kind.metadataOnly ? (toPartialObjectMetadata(kind, obj) as KubernetesObject as T) : obj;
}
