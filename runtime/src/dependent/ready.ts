/**
 * Ready postconditions and activation conditions for common cases, to pass as a dependent's `ready`
 * or `activeWhen`.
 */

import { CustomResourceDefinition, type Deployment } from "../api/kinds.js";
import { isNotFound } from "../client/errors.js";
import type { Reader } from "../client/types.js";

/**
 * A Deployment is ready when its controller has seen its latest spec, every replica runs that spec,
 * and its Available condition is True (what `kubectl rollout status` waits for).
 */
export function deploymentAvailable(d: Deployment): boolean {
  const s = d.status;
  if (!s) return false;
  if ((s.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) return false;
  const want = d.spec?.replicas ?? 1;
  if ((s.updatedReplicas ?? 0) < want || (s.availableReplicas ?? 0) < want) return false;
  return s.conditions?.some((c) => c.type === "Available" && c.status === "True") ?? false;
}

/**
 * An activation condition: the CRD `name` ("widgets.example.com") is installed and Established, so
 * a dependent of its kind can be read, watched and applied. Checked at each reconcile.
 */
export function crdEstablished(reader: Reader, name: string): () => Promise<boolean> {
  return async () => {
    try {
      const crd = await reader.get(CustomResourceDefinition, { name });
      return crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True") ?? false;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  };
}
