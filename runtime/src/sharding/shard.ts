/**
 * Sharding across active replicas by label (timebertt/kubernetes-controller-sharding's protocol,
 * with the sharder built in): every replica is a member of a ring and holds its own shard Lease;
 * the members form a consistent-hash ring; each sharded object carries the label
 * `shard.alpha.sharding.timebertt.dev/<ring>: <member>`, and each replica's cache lists and watches
 * only the objects labelled with its own name.
 *
 * Who labels: the sharder is the lowest-named live member (no separate election). Views of the
 * membership can differ for a moment, so two replicas may both act as sharder; that stays safe
 * because every label change is one step of the protocol below, sent with the object's
 * resourceVersion as a precondition: of two conflicting steps, one fails and is re-decided.
 *
 * Handover: an object assigned to a live member that should move gets the drain label; its owner
 * stops reconciling it and removes both labels (the acknowledgement, sent from a reconcile of that
 * object, so no reconcile of it is in flight there); only then is it labelled for the new member.
 * A member whose Lease expired is first taken over (the sharder writes its own name as the Lease's
 * holder) and only then are its objects relabelled, without drain. The member's own writes pass the
 * shard Lease's fence (leaderelection/fence.ts): once its Lease is older than renewDeadline it must
 * renew before writing, and that renewal fails against the taken-over Lease, so it steps down and
 * writes nothing more.
 *
 * With mechanism "shardSelector" (KEP-5866; kube-apiserver 1.36+ with the ShardedListAndWatch gate)
 * nothing is labelled: the API server filters lists and watches by the hash ranges this member
 * serves, and the handover is by ranges published on the Lease (see rebalanceRanges). kube-apiserver
 * 1.36.3 has the gate (alpha, off by default); with it off, the shardSelector parameter is ignored
 * silently, which checkServerShards detects.
 */
import { hostname } from "node:os";
import { isDeepStrictEqual } from "node:util";
import { groupKindOf, type Kind, metadataOnly } from "../api/kind.js";
import { Lease, Namespace } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import { createCache, type InformerCache } from "../cache/cache.js";
import type { SharedInformer } from "../cache/informer.js";
import { listSequence } from "../cache/reflector.js";
import { transformKey } from "../cache/scope.js";
import type { ByObject, Cache, CacheOptions } from "../cache/types.js";
import { createClient } from "../client/client.js";
import { isConflict, isNotFound } from "../client/errors.js";
import type { KubeConfig } from "../client/kubeconfig.js";
import { mergePatch } from "../client/patch.js";
import { resourcePath } from "../client/paths.js";
import { RestClient } from "../client/rest.js";
import { parseSelector, selectorToString } from "../client/selector.js";
import type { Client } from "../client/types.js";
import { sleepUnlessAborted } from "../internal/sleep.js";
import { createLeaderElector, type LeaderElector } from "../leaderelection/elector.js";
import { fenceWrites } from "../leaderelection/fence.js";
import { formatMicroTime, leaseLock, type ResourceLock } from "../leaderelection/lock.js";
import { nopLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";
import { shardHandoversTotal, shardMembers, shardObjects } from "../metrics/sharding.js";
import type { Reconciler } from "../reconcile/types.js";
import {
  checkIdentity,
  checkRingName,
  drainLabel,
  RANGES_ANNOTATION,
  RING_LABEL,
  shardLabel,
  WEBHOOK_ANNOTATION,
} from "./labels.js";
import { firstExpiry, type Member, MemberTracker } from "./members.js";
import { publishedOwner, publishedRanges, splitHostPort } from "./owner.js";
import {
  balancedRanges,
  contains,
  evenSplit,
  fnv1a64,
  formatRanges,
  type HashRange,
  intersect,
  RANGE_VIRTUAL_NODES,
  ringRanges,
  sameRanges,
  shardSelector,
  subtract,
} from "./ranges.js";
import { DEFAULT_VIRTUAL_NODES, HashRing } from "./ring.js";
import { type ShardedKind, Sharder, type ShardView } from "./sharder.js";

export interface ShardingOptions {
  /** The ring's name: a DNS label, part of the shard label's key. Replicas of one operator share it. */
  ring: string;
  /**
   * What an object is hashed by: "namespace" (default; a namespace's objects stay together, so a
   * reconciler may read its neighbours from the cache) or "uid" (finer spread; each object alone).
   * Cluster-scoped objects have no namespace: with "namespace" they are hashed by name.
   */
  key?: "namespace" | "uid";
  /** This member's name: its Lease's name and the shard label's value. Default: POD_NAME, else the hostname. */
  identity?: string;
  /** Where the shard Leases live. Default: the pod's namespace (in cluster), else "default". */
  namespace?: string;
  /** As leader election's (client-go's 15 s / 10 s / 2 s). */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Points per member on the hash ring (default 100; 16 with shardSelector, which sends them in each request). */
  virtualNodes?: number;
  /**
   * How a replica's cache gets only its shard: "label" (default; any cluster) or "shardSelector"
   * (KEP-5866: the API server filters by hash range; kube-apiserver 1.36+ with the ShardedListAndWatch
   * feature gate, refused at start otherwise). With "shardSelector" nothing is labelled: members
   * publish the ranges they serve on their Lease, and take a range over only once no live member
   * publishes it.
   */
  mechanism?: "label" | "shardSelector";
  /**
   * "host:port" at which the other replicas reach this replica's webhook server, for webhooks that
   * forward admission to the namespace's owner (forwardToShardOwner). Default: POD_IP and the webhook
   * server's port, else the address the webhook server listens on.
   */
  webhookAddress?: string;
}

export { RANGES_ANNOTATION, WEBHOOK_ANNOTATION } from "./labels.js";

/** Where to forward an admission request: the member that serves its namespace, and its webhook address. */
export interface ShardTarget {
  member: string;
  /** Undefined until the member has published it. */
  webhook: string | undefined;
}

export interface ShardContext {
  kubeConfig: KubeConfig;
  logger?: Logger;
  /** The manager's cache options: the shard adds its label selector to the sharded kinds' byObject. */
  cacheOptions: CacheOptions & { byObject: Record<string, ByObject> };
  /** The namespace the shard Leases live in when options.namespace is unset. */
  defaultNamespace: string;
}

/** One member of a shard ring (see the module comment). */
export class Shard implements ShardView {
  readonly ring: string;
  readonly identity: string;
  readonly namespace: string;
  readonly shardLabel: string;
  readonly drainLabel: string;
  readonly key: "namespace" | "uid";
  private readonly log: Logger;
  private readonly leaseClient: Client;
  private readonly fencedLeaseClient: Client;
  private readonly elector: LeaderElector;
  private readonly tracker = new MemberTracker();
  private readonly kinds: ShardedKind[] = [];
  private readonly retryPeriodMs: number;
  private readonly leaseDurationMs: number;
  private readonly virtualNodes: number;
  /** The manager's cache and fenced client, once the manager has made them (bind). */
  private cache: Cache | undefined;
  private client: Client | undefined;
  private members: Member[] = [];
  private liveKey = "";
  private hashRing = new HashRing([]);
  private sharder: Sharder | undefined;
  private holding = false;
  readonly mechanism: "label" | "shardSelector";
  /** shardSelector: the ranges this member reconciles (and caches) now, and the hashes being reconciled. */
  private serving: HashRange[] = [];
  private readonly inflight = new Map<object, bigint>();
  private namespaceHash = new Map<string, bigint>();
  /** shardSelector: ranges claimed on this member's Lease and not served yet (rebalanceRanges). */
  private claiming: HashRange[] = [];
  /** Set once this member stops (its Lease is then released): it answers for no namespace any more. */
  private stopping = false;
  /** listSequence() when `serving` last changed: the cache is complete again once every list is newer. */
  private servingChangedAt = 0;
  /** Where this replica's webhook server is reached, when a forwarding webhook asked to advertise it. */
  private webhookAddressOf: (() => string | undefined) | undefined;
  /**
   * Aborted by a Lease event that changes a member: ends the wait for the next round, or, when it came
   * during a round, makes the next one start at once. Renewed when the wait ends, as in the elector.
   */
  private wake = new AbortController();

  constructor(
    options: ShardingOptions,
    private readonly context: ShardContext,
  ) {
    checkRingName(options.ring);
    const identity = options.identity ?? process.env.POD_NAME ?? hostnameIdentity();
    checkIdentity(identity);
    if (options.key !== undefined && options.key !== "namespace" && options.key !== "uid") {
      throw new Error(`sharding.key "${String(options.key)}" is unknown; use "namespace" or "uid"`);
    }
    if (
      options.mechanism !== undefined &&
      options.mechanism !== "label" &&
      options.mechanism !== "shardSelector"
    ) {
      throw new Error(
        `sharding.mechanism "${String(options.mechanism)}" is unknown; use "label" or "shardSelector"`,
      );
    }
    this.mechanism = options.mechanism ?? "label";
    const advertised = options.webhookAddress;
    if (advertised !== undefined) {
      splitHostPort(advertised); // refuses anything but "host:port" at start
      this.webhookAddressOf = () => advertised;
    }
    this.ring = options.ring;
    this.identity = identity;
    this.namespace = options.namespace ?? context.defaultNamespace;
    this.key = options.key ?? "namespace";
    this.shardLabel = shardLabel(this.ring);
    this.drainLabel = drainLabel(this.ring);
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.virtualNodes =
      options.virtualNodes ?? (this.mechanism === "label" ? DEFAULT_VIRTUAL_NODES : RANGE_VIRTUAL_NODES);
    this.log = (context.logger ?? nopLogger()).child({
      component: "sharding",
      ring: this.ring,
      shard: identity,
    });
    const renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.leaseClient = createClient(context.kubeConfig, {
      logger: this.log,
      rest: { timeoutMs: Math.max(renewDeadlineMs / 2, 1_000), userAgent: "kbts-manager/sharding" },
    });
    this.elector = createLeaderElector({
      lock: onceCreated(leaseLock(this.leaseClient, this.namespace, identity, { [RING_LABEL]: this.ring })),
      name: `${this.ring}/${identity}`,
      identity,
      leaseDurationMs: this.leaseDurationMs,
      renewDeadlineMs,
      retryPeriodMs: this.retryPeriodMs,
      releaseOnCancel: true,
      logger: this.log,
      onStartedLeading: () => {
        this.holding = true;
      },
    });
    this.fencedLeaseClient = this.fence(this.leaseClient);
  }

  /** A client whose writes pass this member's shard Lease fence. */
  fence(client: Client): Client {
    return fenceWrites(
      client,
      () => this.elector.ensureLeading(),
      () => this.elector.checkLeading(),
    );
  }

  /** The manager's cache (reads of the sharded kinds) and fenced client (acknowledgements, labels). */
  bind(cache: Cache, client: Client): void {
    this.cache = cache;
    this.client = client;
  }

  /**
   * Shards a controller's For kind: this replica's cache lists and watches only the objects
   * labelled for it, and the sharder assigns every object of the kind. Call before anything reads
   * the kind (the builder calls it from for()).
   */
  shardKind(kind: Kind): void {
    const full = this.kinds.find((k) => transformKey(k.kind) === transformKey(kind));
    if (full) return;
    if (this.informerOf(kind) || this.informerOf(metadataOnly(kind))) {
      throw new Error(
        `cannot shard ${groupKindOf(kind)}: its informer already runs unsharded; register the controller (for(${kind.kind})) before anything reads ${kind.kind}`,
      );
    }
    const options = this.context.cacheOptions;
    const key = transformKey(kind);
    const entry = options.byObject[key] ?? {};
    if (this.mechanism === "shardSelector") {
      // A cluster-scoped kind keyed by namespace is hashed by its name (a Namespace goes with its own
      // objects), which shardSelector cannot express (it hashes only uid or namespace, "" here): such
      // a kind is cached whole, and the reconciler skips the names this member does not serve.
      if (!this.cachedWhole(kind)) {
        const field = this.hashField();
        options.byObject[key] = { ...entry, shardSelector: () => shardSelector(field, this.serving) };
      }
      this.kinds.push({ kind, meta: metadataOnly(kind), base: undefined });
      return;
    }
    const base =
      entry.labelSelector ?? options.selectors?.[key]?.labelSelector ?? options.defaultLabelSelector;
    const selector = parseSelector(base);
    const baseString = selectorToString(selector) || undefined;
    selector.requirements.push({ key: this.shardLabel, operator: "=", values: [this.identity] });
    options.byObject[key] = { ...entry, labelSelector: selectorToString(selector) };
    if (options.selectors?.[key]?.labelSelector !== undefined) {
      options.selectors[key] = { ...options.selectors[key], labelSelector: undefined };
    }
    this.kinds.push({ kind, meta: metadataOnly(kind), base: baseString });
  }

  /**
   * Wraps a For kind's reconciler: an object not labelled for this member is skipped (it moved, or
   * is gone: its new owner reconciles it; the reconciler is not told it is "not found", which it
   * could take for a deletion), and one carrying the drain label is handed back instead of reconciled.
   */
  reconciler(kind: Kind, inner: Reconciler): Reconciler {
    return {
      reconcile: async (request, context) => {
        const cache = this.cache;
        const client = this.client;
        if (!cache || !client) throw new Error("the shard is not bound to a manager");
        let obj: KubernetesObject;
        try {
          obj = await cache.get(kind, request);
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
        if (this.mechanism === "shardSelector") {
          // Checked and registered in one step, so dropping a range can wait for what is in flight.
          const hash = fnv1a64(this.hashKeyOf(obj));
          if (!contains(this.serving, hash)) return undefined;
          const token = {};
          this.inflight.set(token, hash);
          try {
            return await inner.reconcile(request, context);
          } finally {
            this.inflight.delete(token);
          }
        }
        const labels = obj.metadata?.labels ?? {};
        if (labels[this.shardLabel] !== this.identity) return undefined;
        if (this.drainLabel in labels) {
          try {
            await client.patch(
              kind,
              obj,
              mergePatch({
                metadata: {
                  resourceVersion: obj.metadata?.resourceVersion,
                  labels: { [this.shardLabel]: null, [this.drainLabel]: null },
                },
              }),
            );
            context.log.info(
              { shard: this.identity },
              "handed the object back to the sharder (drain acknowledged)",
            );
          } catch (err) {
            // A newer version is on its way to the cache; that reconcile acknowledges it.
            if (!isConflict(err) && !isNotFound(err)) throw err;
          }
          return undefined;
        }
        return inner.reconcile(request, context);
      },
    };
  }

  /**
   * Holds this member's Lease until the signal aborts (then releases it, so the others take its
   * objects over at once) or the Lease is lost. `onHeld` runs once the Lease is first held.
   */
  async run(signal: AbortSignal, onHeld: () => void): Promise<"lost" | "stopped"> {
    if (this.mechanism === "shardSelector") await this.checkServerShards();
    if (this.balancesNamespaces() && !this.namespaceInformer()) {
      // desiredRanges cuts where the namespaces are: a metadata-only watch when nothing caches them.
      await this.cache?.getInformer(metadataOnly(Namespace));
    }
    // From the stop on, another member may take this one's ranges over: answer for none of them.
    const stop = () => {
      this.stopping = true;
    };
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    const stopMembership = new AbortController();
    let membership: Promise<void> | undefined;
    const waitHeld = (async () => {
      while (!this.holding && !signal.aborted) await sleepUnlessAborted(20, signal);
      if (this.mechanism === "label") {
        // A sharder that saw this member's name dead (a restart reusing the name) may still move
        // objects labelled for it without drain; after two rounds every sharder has seen it live.
        await sleepUnlessAborted(2 * this.retryPeriodMs, signal);
      } else if (!signal.aborted) {
        // A Lease taken back from a previous run may still publish that run's ranges: this run serves none yet.
        await this.publish([]).catch((err: unknown) =>
          this.log.error({ err }, "could not clear the ranges published on this member's Lease"),
        );
      }
      if (signal.aborted) return;
      onHeld();
      membership = this.membershipLoop(AbortSignal.any([signal, stopMembership.signal]));
    })();
    const outcome = await this.elector.run(signal);
    stopMembership.abort();
    await waitHeld;
    await membership;
    shardMembers.remove({ ring: this.ring, shard: this.identity });
    shardObjects.remove({ ring: this.ring, shard: this.identity });
    return outcome;
  }

  /** The live members this replica saw last, sorted. */
  liveMembers(): string[] {
    return this.hashRing.members.slice();
  }

  /** The member an object belongs to on the current ring. */
  ownerOf(obj: KubernetesObject): string | undefined {
    return this.hashRing.owner(this.hashKeyOf(obj));
  }

  /** shardSelector cannot hash a cluster-scoped object's name: keyed by namespace, such a kind is cached whole. */
  private cachedWhole(kind: Kind): boolean {
    return this.mechanism === "shardSelector" && this.key === "namespace" && !kind.namespaced;
  }

  /** The field the API server hashes for shardSelector. */
  private hashField(): string {
    return this.key === "uid" ? "object.metadata.uid" : "object.metadata.namespace";
  }

  /** The ranges this member serves now (shardSelector). */
  servingRanges(): HashRange[] {
    return this.serving.slice();
  }

  /** An API server without the gate ignores shardSelector and sends everything: refuse to start on one. */
  private async checkServerShards(): Promise<void> {
    const rest = new RestClient(this.context.kubeConfig, { userAgent: "kbts-manager/sharding" });
    try {
      const list = await rest.request<{ metadata?: { shardInfo?: unknown } }>({
        method: "GET",
        path: `${resourcePath(Lease, { namespace: this.namespace })}?limit=1&shardSelector=${encodeURIComponent(shardSelector("object.metadata.uid", [[0n, 1n << 64n]]))}`,
      });
      if (!list.metadata?.shardInfo) {
        throw new Error(
          'sharding.mechanism "shardSelector": the API server ignored the shardSelector of a list (no shardInfo in its answer); it needs kube-apiserver 1.36+ with --feature-gates=ShardedListAndWatch=true, or use mechanism "label"',
        );
      }
    } finally {
      rest.close();
    }
  }

  /**
   * shardSelector's handover: give up what the ring no longer assigns here (stop reconciling it, wait
   * for reconciles in flight, then publish), and take up a new range only once no live or expired
   * member publishes any of it, checked again after publishing the claim (of two members claiming
   * at once, at least one sees the other's claim and withdraws).
   */
  private async rebalanceRanges(): Promise<void> {
    const live = this.members.filter((m) => m.state === "live").map((m) => m.name);
    const desired = this.desiredRanges(live);
    if (sameRanges(this.serving, desired)) return;
    const keep = intersect(this.serving, desired);
    if (!sameRanges(keep, this.serving)) {
      this.setServing(keep);
      while ([...this.inflight.values()].some((h) => !contains(keep, h))) await sleepUnlessAborted(20);
      this.relistAll();
      await this.publish(keep);
      this.log.info({ serving: formatRanges(keep) }, "gave up hash ranges");
    }
    const add = subtract(desired, keep);
    if (add.length === 0 || this.othersServe(add, this.members)) return;
    this.claiming = add;
    try {
      await this.publish(desired);
      const fresh = this.tracker.observe(await this.listLeases());
      if (this.othersServe(add, fresh)) {
        await this.publish(keep);
        return;
      }
    } finally {
      this.claiming = [];
    }
    this.setServing(desired);
    this.relistAll();
    shardHandoversTotal.inc({ ring: this.ring, reason: "ranges" });
    this.log.info({ serving: formatRanges(desired) }, "took up hash ranges");
  }

  /**
   * The relist that follows makes the cache incomplete for the new ranges until it finishes (and, as
   * the watch stops meanwhile, stale for the kept ones): readyFor waits for lists begun after this.
   */
  private setServing(ranges: HashRange[]): void {
    this.serving = ranges;
    this.servingChangedAt = listSequence();
  }

  /**
   * Where this replica's webhook server is reached, published on its Lease (WEBHOOK_ANNOTATION) for
   * the members that forward admission here; sharding.webhookAddress, when set, wins.
   */
  advertiseWebhook(address: () => string | undefined): void {
    this.webhookAddressOf ??= address;
  }

  /**
   * Whether this replica may answer an admission request about `namespace` from its cache: it owns
   * the namespace (shardSelector: serves its hash; label: is its owner on the ring) and the informers
   * of the sharded kinds have listed since it took that up, so its cache holds all of the namespace.
   */
  readyFor(namespace: string): boolean {
    if (!this.holding || this.stopping) return false;
    const informers = this.kinds.flatMap((k) => [this.informerOf(k.kind), this.informerOf(k.meta)]);
    if (this.mechanism === "shardSelector") {
      if (!contains(this.serving, fnv1a64(namespace))) return false;
      return informers.every(
        (i) => !i || i.reflectors.every((r) => r.stats.lastListSeq > this.servingChangedAt),
      );
    }
    // The label mechanism: the cache fills as the sharder relabels; this is as far as it can be told.
    return this.hashRing.owner(namespace) === this.identity && informers.every((i) => !i || i.hasSynced());
  }

  /**
   * Whether this member serves `namespace` or is taking it up (shardSelector: it serves its hash, or
   * has claimed it on its Lease; label: it is its owner on the ring), so it may be readyFor it soon.
   */
  claims(namespace: string): boolean {
    if (!this.holding || this.stopping) return false;
    if (this.mechanism === "shardSelector") {
      const hash = fnv1a64(namespace);
      return contains(this.serving, hash) || contains(this.claiming, hash);
    }
    return this.hashRing.owner(namespace) === this.identity;
  }

  /**
   * The other member that serves `namespace` now: shardSelector, the live member whose published
   * ranges hold its hash; label, its owner on the ring. Undefined when none does, or this one does.
   */
  targetFor(namespace: string): ShardTarget | undefined {
    const member =
      this.mechanism === "shardSelector"
        ? publishedOwner(this.members, fnv1a64(namespace))
        : this.members.find((m) => m.name === this.hashRing.owner(namespace) && m.state === "live");
    if (!member || member.name === this.identity) return undefined;
    return { member: member.name, webhook: member.lease.metadata?.annotations?.[WEBHOOK_ANNOTATION] };
  }

  /** Publishes this replica's webhook address on its Lease when it is known and not there yet. */
  private async publishWebhook(): Promise<void> {
    const address = this.webhookAddressOf?.();
    if (!address) return;
    const own = this.members.find((m) => m.name === this.identity);
    if (!own || own.lease.metadata?.annotations?.[WEBHOOK_ANNOTATION] === address) return;
    await this.fencedLeaseClient.patch(
      Lease,
      { metadata: { name: this.identity, namespace: this.namespace } },
      mergePatch({ metadata: { annotations: { [WEBHOOK_ANNOTATION]: address } } }),
    );
  }

  private othersServe(ranges: HashRange[], members: Member[]): boolean {
    return members.some(
      (m) =>
        m.name !== this.identity && m.state !== "dead" && intersect(publishedRanges(m), ranges).length > 0,
    );
  }

  private async publish(ranges: HashRange[]): Promise<void> {
    await this.fencedLeaseClient.patch(
      Lease,
      { metadata: { name: this.identity, namespace: this.namespace } },
      mergePatch({ metadata: { annotations: { [RANGES_ANNOTATION]: formatRanges(ranges) } } }),
    );
  }

  private relistAll(): void {
    const cache = this.cache as Partial<Pick<InformerCache, "relist">> | undefined;
    for (const k of this.kinds) {
      cache?.relist?.(k.kind);
      cache?.relist?.(k.meta);
    }
  }

  private listLeases(): Promise<Lease[]> {
    return this.leaseClient.list(Lease, {
      namespace: this.namespace,
      labelSelector: { [RING_LABEL]: this.ring },
    });
  }

  private hashKeyOf(obj: KubernetesObject): string {
    const m = obj.metadata ?? {};
    if (this.key === "uid") return m.uid ?? "";
    return m.namespace || m.name || "";
  }

  private async membershipLoop(signal: AbortSignal): Promise<void> {
    const leaseWatch = this.watchLeases(signal);
    try {
      while (!signal.aborted) {
        try {
          await this.refreshMembers();
          if (this.mechanism === "shardSelector") await this.rebalanceRanges();
        } catch (err) {
          if (!signal.aborted) this.log.error({ err }, "could not list the ring's shard Leases");
        }
        // Apart, so a failure here never holds the ranges up; retried next round.
        await this.publishWebhook().catch((err: unknown) => {
          if (!signal.aborted) this.log.error({ err }, "could not publish this member's webhook address");
        });
        this.reportObjects();
        await this.untilNextRound(signal);
      }
    } finally {
      await this.sharder?.stop();
      this.sharder = undefined;
      await leaseWatch;
    }
  }

  /**
   * A watch of the ring's Leases (its own small cache) beside the rounds' lists: it times every
   * renewal as it arrives, so an expiry is judged a Lease duration after the member's last renewal
   * rather than up to a retry later, and it starts a round at once when a member joins, leaves, is
   * taken over or publishes, so the others need not wait a retry to see it.
   */
  private watchLeases(signal: AbortSignal): Promise<void> {
    const cache = createCache(this.context.kubeConfig, {
      logger: this.log,
      namespaces: [this.namespace],
      byObject: { [transformKey(Lease)]: { labelSelector: `${RING_LABEL}=${this.ring}` } },
    });
    void cache.getInformer(Lease).then((informer) =>
      informer.addEventHandler((event) => {
        const lease = event.object;
        if (event.type !== "delete") this.tracker.saw(lease);
        const known = this.members.find((m) => m.name === lease.metadata?.name)?.lease;
        const changed =
          event.type === "delete" ||
          known?.spec?.holderIdentity !== lease.spec?.holderIdentity ||
          !isDeepStrictEqual(known?.metadata?.annotations ?? {}, lease.metadata?.annotations ?? {});
        if (changed) this.wake.abort();
      }),
    );
    return cache.start(signal);
  }

  /**
   * Waits a retry period for the next round, or less: until the first live member would be judged
   * expired (the sharder takes it over then, not up to a retry later), or until the Lease watch
   * sees a member change (wake).
   */
  private async untilNextRound(signal: AbortSignal): Promise<void> {
    const expiry = firstExpiry(this.members, this.identity);
    const ms =
      expiry === undefined
        ? this.retryPeriodMs
        : Math.min(this.retryPeriodMs, Math.max(0, expiry + 1 - Date.now()));
    if (ms > 0) await sleepUnlessAborted(ms, AbortSignal.any([signal, this.wake.signal]));
    if (this.wake.signal.aborted) this.wake = new AbortController();
  }

  private async refreshMembers(): Promise<void> {
    this.members = this.tracker.observe(await this.listLeases());
    const live = this.members.filter((m) => m.state === "live").map((m) => m.name);
    shardMembers.set({ ring: this.ring, shard: this.identity }, live.length);
    const isSharder = live[0] === this.identity;
    if (isSharder) {
      // Take over expired members first: until their Lease is ours, they could still write.
      for (const m of this.members) {
        if (m.state === "expired") await this.takeOver(m);
        else if (m.state === "dead" && m.unchangedForMs > this.leaseDurationMs) await this.forget(m);
      }
    }
    const key = live.join(",");
    if (key !== this.liveKey) {
      this.liveKey = key;
      this.hashRing = new HashRing(live, this.virtualNodes);
      this.log.info({ members: live }, "shard ring members changed");
      this.sharder?.resyncAll();
    }
    if (isSharder && !this.sharder && this.kinds.length > 0 && this.mechanism === "label") {
      this.sharder = new Sharder(this, {
        kubeConfig: this.context.kubeConfig,
        namespaces: this.context.cacheOptions.namespaces,
        kinds: this.kinds,
        logger: this.log,
      });
      this.sharder.start();
    } else if (!isSharder && this.sharder) {
      await this.sharder.stop();
      this.sharder = undefined;
    }
  }

  /** Writes this member as the expired member's holder: its renewals now fail, and it steps down. */
  private async takeOver(m: Member): Promise<void> {
    const spec = m.lease.spec ?? {};
    const now = formatMicroTime(Date.now());
    try {
      await this.fencedLeaseClient.update(Lease, {
        ...m.lease,
        spec: {
          ...spec,
          holderIdentity: this.identity,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: (spec.leaseTransitions ?? 0) + 1,
        },
      });
      this.log.info(
        { member: m.name },
        "took over the Lease of an expired shard; its objects move without drain",
      );
      m.state = "dead";
      m.unchangedForMs = 0;
    } catch (err) {
      // It renewed meanwhile (conflict), or went: the next round sees which.
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }

  /** Deletes the Lease of a member gone for a Lease duration (a pod of an old rollout). */
  private async forget(m: Member): Promise<void> {
    try {
      await this.fencedLeaseClient.delete(Lease, m.lease, {
        preconditions: { resourceVersion: m.lease.metadata?.resourceVersion },
      });
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }

  /** A kind's informer in the manager's cache, if it runs (the cache may be a stand-in without peekInformer). */
  /**
   * What this member should serve. Keyed by namespace, the ranges are cut where the cluster's
   * namespaces are (balancedRanges: FNV-1a puts similar names together), and a split that is still
   * even within evenSplit's slack is kept, so a new namespace moves nothing (a move relists every
   * sharded kind on two members). Keyed by uid (random), or before the namespaces are listed, the
   * consistent-hash ring.
   */
  private desiredRanges(live: string[]): HashRange[] {
    const hashes = this.balancesNamespaces() ? this.namespaceHashes() : undefined;
    if (!hashes || hashes.length < live.length)
      return ringRanges(live, this.virtualNodes).get(this.identity) ?? [];
    const published = new Map(
      live.map((name) => {
        if (name === this.identity) return [name, this.serving];
        const member = this.members.find((m) => m.name === name);
        return [name, member ? publishedRanges(member) : []];
      }),
    );
    if (evenSplit(published, hashes)) return published.get(this.identity) ?? [];
    return balancedRanges(live, hashes).get(this.identity) ?? [];
  }

  private balancesNamespaces(): boolean {
    return this.mechanism === "shardSelector" && this.key === "namespace";
  }

  private namespaceInformer(): SharedInformer | undefined {
    return this.informerOf(Namespace) ?? this.informerOf(metadataOnly(Namespace));
  }

  /** The FNV-1a hashes of the cluster's namespaces, once listed (memoized by name: a name's hash never changes). */
  private namespaceHashes(): bigint[] | undefined {
    const informer = this.namespaceInformer();
    if (!informer?.hasSynced()) return undefined;
    const out: bigint[] = [];
    const hashes = new Map<string, bigint>();
    for (const name of informer.store.keys()) {
      const h = this.namespaceHash.get(name) ?? fnv1a64(name);
      hashes.set(name, h);
      out.push(h);
    }
    this.namespaceHash = hashes; // deleted namespaces drop out
    return out;
  }

  private informerOf(kind: Kind): SharedInformer | undefined {
    const cache = this.cache as Partial<Pick<InformerCache, "peekInformer">> | undefined;
    return cache?.peekInformer?.(kind as Kind<KubernetesObject>);
  }

  /** kbts_shard_objects: the sharded objects this replica's cache holds (only its own). */
  private reportObjects(): void {
    let n = 0;
    for (const k of this.kinds) {
      if (this.cachedWhole(k.kind)) continue;
      n += this.informerOf(k.kind)?.store.size ?? 0;
      n += this.informerOf(k.meta)?.store.size ?? 0;
    }
    shardObjects.set({ ring: this.ring, shard: this.identity }, n);
  }

  /** For the sharder: a member's state, undefined when it has no Lease. */
  memberState(name: string): Member["state"] | undefined {
    return this.members.find((m) => m.name === name)?.state;
  }

  /**
   * For the sharder, about a member it has not listed (yet): "gone" only when its Lease does not
   * exist now; otherwise it joined since the last list, and the next round says how it is.
   */
  async leaseState(name: string): Promise<"gone" | "unknown"> {
    try {
      await this.leaseClient.get(Lease, { namespace: this.namespace, name });
      return "unknown";
    } catch (err) {
      if (isNotFound(err)) return "gone";
      throw err;
    }
  }

  /** For the sharder: the manager's fenced client. */
  writer(): Client {
    if (!this.client) throw new Error("the shard is not bound to a manager");
    return this.client;
  }
}

/**
 * A shard Lease that vanished after this member held it (deleted by the sharder once taken over)
 * must not be created again by the same run: the member lost it, and its objects were moved.
 */
function onceCreated(lock: ResourceLock): ResourceLock {
  let held = false;
  return {
    get: () => lock.get(),
    async create(record) {
      if (held) throw new Error(`shard Lease ${lock.describe()} was deleted after this member held it`);
      await lock.create(record);
      held = true;
    },
    async update(record) {
      await lock.update(record);
      held = true;
    },
    describe: () => lock.describe(),
  };
}

function hostnameIdentity(): string {
  return hostname().toLowerCase();
}
