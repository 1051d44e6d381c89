import { Lease } from "../api/kinds.js";
import { isNotFound } from "../client/errors.js";
import type { Client } from "../client/types.js";

/** What a Lease says about its holder (client-go's LeaderElectionRecord). Times are MicroTime strings. */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaseTransitions: number;
}

/** Where the record lives (client-go's resourcelock.Interface). Update uses the last version read, so a stale write fails. */
export interface ResourceLock {
  /** undefined when the lock object does not exist. */
  get(): Promise<LeaderElectionRecord | undefined>;
  create(record: LeaderElectionRecord): Promise<void>;
  update(record: LeaderElectionRecord): Promise<void>;
  describe(): string;
}

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits, UTC. */
export function formatMicroTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/**
 * A coordination.k8s.io/v1 Lease as the lock (controller-runtime's default "leases" lock). `labels`
 * go on the Lease when it is created (a shard Lease names its ring so the ring can list its members).
 */
export function leaseLock(
  client: Client,
  namespace: string,
  name: string,
  labels?: Record<string, string>,
): ResourceLock {
  let last: Lease | undefined;
  const toSpec = (r: LeaderElectionRecord): NonNullable<Lease["spec"]> => ({
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: r.acquireTime,
    renewTime: r.renewTime,
    leaseTransitions: r.leaseTransitions,
  });
  return {
    async get() {
      try {
        last = await client.get(Lease, { namespace, name });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
      const s = last.spec ?? {};
      return {
        holderIdentity: s.holderIdentity ?? "",
        leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
        acquireTime: s.acquireTime ?? "",
        renewTime: s.renewTime ?? "",
        leaseTransitions: s.leaseTransitions ?? 0,
      };
    },
    async create(record) {
      last = await client.create(Lease, {
        apiVersion: "coordination.k8s.io/v1",
        kind: "Lease",
        metadata: { namespace, name, ...(labels ? { labels } : {}) },
        spec: toSpec(record),
      });
    },
    async update(record) {
      if (!last) throw new Error(`lease ${namespace}/${name} not read yet; get it before updating`);
      last = await client.update(Lease, { ...last, spec: toSpec(record) });
    },
    describe() {
      return `${namespace}/${name}`;
    },
  };
}
