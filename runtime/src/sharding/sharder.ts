/**
 * The label mechanism's sharder (see shard.ts): run by the ring's lowest-named live member, it
 * watches the metadata of every object of the sharded kinds and moves each one protocol step at a
 * time towards its owner on the ring: unassigned → labelled; owned by a live member that should let
 * go → drain label (the owner acknowledges by removing both); owned by a dead member → relabelled.
 * Every step is a merge patch carrying the resourceVersion it was decided on.
 */
import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { createCache, type InformerCache } from "../cache/cache.js";
import { transformKey } from "../cache/scope.js";
import type { ByObject } from "../cache/types.js";
import type { KubeConfig } from "../client/kubeconfig.js";
import { mergePatch } from "../client/patch.js";
import type { Client } from "../client/types.js";
import type { Logger } from "../log/types.js";
import { shardHandoversTotal } from "../metrics/sharding.js";
import type { MemberState } from "./members.js";

/** A sharded kind: full, as metadata, and its label selector before sharding. */
export interface ShardedKind {
  kind: Kind;
  meta: Kind;
  /** The kind's label selector before sharding: the sharder watches (and assigns) only these. */
  base: string | undefined;
}

/** What the sharder needs of its member (Shard). */
export interface ShardView {
  readonly ring: string;
  readonly shardLabel: string;
  readonly drainLabel: string;
  /** The member an object belongs to on the current ring. */
  ownerOf(obj: KubernetesObject): string | undefined;
  /** A member's state at the last membership round; undefined if it was not listed. */
  memberState(name: string): MemberState | undefined;
  /** For a member not listed: "gone" only when its Lease does not exist now. */
  leaseState(name: string): Promise<"gone" | "unknown">;
  /** The member's fenced client. */
  writer(): Client;
}

export interface SharderOptions {
  kubeConfig: KubeConfig;
  /** The manager cache's namespaces, if it watches only some. */
  namespaces?: string[];
  kinds: ShardedKind[];
  logger: Logger;
}

/** How many objects the sharder steps at once. */
const SHARDER_WORKERS = 8;

/**
 * The sharder, run by the lowest-named live member: a metadata-only watch of every object of the
 * sharded kinds (its own cache, started and stopped with the role), and one worker that moves each
 * object one protocol step towards its owner on the ring.
 */
export class Sharder {
  private readonly abort = new AbortController();
  private cache: InformerCache | undefined;
  private running: Promise<unknown> | undefined;
  private readonly pending = new Map<string, { kind: ShardedKind; key: string }>();
  private waiters: (() => void)[] = [];

  private readonly kinds: ShardedKind[];
  private readonly log: Logger;

  constructor(
    private readonly shard: ShardView,
    private readonly options: SharderOptions,
  ) {
    this.kinds = options.kinds;
    this.log = options.logger;
  }

  start(): void {
    this.log.info("this member is the ring's sharder");
    const byObject: Record<string, ByObject> = {};
    for (const k of this.kinds) byObject[transformKey(k.kind)] = { labelSelector: k.base };
    this.cache = createCache(this.options.kubeConfig, {
      logger: this.log,
      namespaces: this.options.namespaces,
      byObject,
    });
    const cache = this.cache;
    for (const k of this.kinds) {
      void cache.getInformer(k.meta).then((informer) =>
        informer.addEventHandler((event) => {
          if (event.type === "delete") return;
          this.enqueue(k, event.object);
        }),
      );
    }
    this.running = Promise.all([cache.start(this.abort.signal), this.work(this.abort.signal)]);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.wakeAll();
    await this.running;
  }

  /** Membership changed: every object is looked at again. */
  resyncAll(): void {
    const cache = this.cache;
    if (!cache) return;
    for (const k of this.kinds) {
      for (const obj of cache.peekInformer(k.meta)?.store.values() ?? []) this.enqueue(k, obj);
    }
  }

  private enqueue(kind: ShardedKind, obj: KubernetesObject): void {
    const m = obj.metadata ?? {};
    const key = m.namespace ? `${m.namespace}/${m.name}` : (m.name ?? "");
    this.pending.set(`${transformKey(kind.kind)}|${key}`, { kind, key });
    this.wakeAll();
  }

  /**
   * SHARDER_WORKERS steps at once (labelling a cluster's objects one by one would take minutes), never
   * two of one object: a key being stepped stays pending until its step ends.
   */
  private async work(signal: AbortSignal): Promise<void> {
    const active = new Set<string>();
    const worker = async () => {
      while (!signal.aborted) {
        let next: [string, { kind: ShardedKind; key: string }] | undefined;
        for (const entry of this.pending) {
          if (!active.has(entry[0])) {
            next = entry;
            break;
          }
        }
        if (!next) {
          await new Promise<void>((resolve) => this.waiters.push(resolve));
          continue;
        }
        const [id, item] = next;
        this.pending.delete(id);
        active.add(id);
        try {
          await this.step(item.kind, item.key);
        } catch (err) {
          if (signal.aborted) return;
          this.log.debug({ err, object: item.key }, "sharding step failed; trying again");
          setTimeout(() => {
            if (!this.pending.has(id)) this.pending.set(id, item);
            this.wakeAll();
          }, 200).unref();
        } finally {
          active.delete(id);
          // Its key may have been enqueued again meanwhile, and left for this worker to finish.
          if (this.pending.has(id)) this.wakeAll();
        }
      }
    };
    await Promise.all(Array.from({ length: SHARDER_WORKERS }, worker));
  }

  private wakeAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** One protocol step for one object (see the module comment). */
  private async step(kind: ShardedKind, key: string): Promise<void> {
    const obj = this.cache?.peekInformer(kind.meta)?.store.get(key);
    if (!obj) return;
    const shard = this.shard;
    const labels = obj.metadata?.labels ?? {};
    const current = labels[shard.shardLabel];
    const draining = shard.drainLabel in labels;
    const desired = shard.ownerOf(obj);
    if (!desired || (current === desired && !draining)) return;
    const rv = obj.metadata?.resourceVersion;
    const assign = (reason?: "dead") =>
      shard
        .writer()
        .patch(
          kind.kind,
          { metadata: { name: obj.metadata?.name, namespace: obj.metadata?.namespace } },
          mergePatch({
            metadata: {
              resourceVersion: rv,
              labels: { [shard.shardLabel]: desired, [shard.drainLabel]: null },
            },
          }),
        )
        .then(() => {
          if (reason) shardHandoversTotal.inc({ ring: shard.ring, reason });
        });
    if (current === undefined || current === "") return void (await assign());
    const state = shard.memberState(current) ?? (await shard.leaseState(current));
    // Its Lease was released or taken over (or deleted after that): nothing of it writes any more.
    if (state === "dead" || state === "gone") return void (await assign("dead"));
    // Expired but not yet taken over, or not listed yet: wait for the next membership round.
    if (state !== "live" || draining) return;
    await shard
      .writer()
      .patch(
        kind.kind,
        { metadata: { name: obj.metadata?.name, namespace: obj.metadata?.namespace } },
        mergePatch({ metadata: { resourceVersion: rv, labels: { [shard.drainLabel]: "true" } } }),
      );
    shardHandoversTotal.inc({ ring: shard.ring, reason: "drain" });
  }
}
