import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { isNotFound } from "./errors.js";
import type { ObjectKey, Reader } from "./types.js";

/**
 * The object, or undefined when it does not exist: `get` with controller-runtime's
 * client.IgnoreNotFound applied, for code that creates what is missing. Any other error is thrown.
 */
export async function getIfExists<T extends KubernetesObject>(
  reader: Reader,
  kind: Kind<T>,
  key: ObjectKey,
): Promise<T | undefined> {
  try {
    return await reader.get(kind, key);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
