import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createCache, type InformerCache } from "../cache/cache.js";
import type { ByObject, Cache } from "../cache/types.js";
import { createAPIReader, createClient } from "../client/client.js";
import { inClusterNamespace, loadKubeConfig } from "../client/config.js";
import type { KubeConfig } from "../client/kubeconfig.js";
import { RestClient } from "../client/rest.js";
import type { Client, Reader } from "../client/types.js";
import { createEventRecorder, type FlushableEventRecorder } from "../events/recorder.js";
import type { EventRecorder } from "../events/types.js";
import { type HealthCheck, HealthChecks, ping } from "../healthz/healthz.js";
import { formatAddress } from "../internal/address.js";
import { trackConnections } from "../internal/server-shutdown.js";
import { sleepUnlessAborted } from "../internal/sleep.js";
import { createLeaderElector, type LeaderElector } from "../leaderelection/elector.js";
import { fenceWrites } from "../leaderelection/fence.js";
import { leaseLock } from "../leaderelection/lock.js";
import { createLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";
import { registerProcessMetrics } from "../metrics/defaults.js";
import { authenticationAndAuthorizationFilter, restAccessReviewer } from "../metrics/filters/filters.js";
import { metricsRegistry } from "../metrics/registry.js";
import { createMetricsServer, createSecureMetricsServer } from "../metrics/server/server.js";
import { Shard } from "../sharding/shard.js";
import { offeredProtocols, type TLSServer } from "../tls/server.js";
import { loadTracing, tracingWanted, useTracerProvider } from "../tracing/tracing.js";
import type { WebhookServer } from "../webhook/types.js";
import type { Manager, ManagerOptions, Runnable } from "./types.js";
import { DeferredWebhookServer } from "./webhook-server.js";

/** One start-order group (controller-runtime's runnable groups), stopped as a unit. */
class Group {
  readonly abort = new AbortController();
  readonly runnables: Runnable[] = [];
  readonly running: Promise<void>[] = [];
  started = false;
  constructor(readonly name: string) {}
}

/**
 * controller-runtime's manager: a list of runnables started in groups – HTTP servers (metrics,
 * health probes), the webhook server, caches (waiting for sync), runnables that need no leader,
 * then, once leader, controllers – and stopped in reverse within the graceful-shutdown bound.
 */
export function createManager(options: ManagerOptions = {}): Manager {
  return new ControllerManager(options);
}

class ControllerManager implements Manager {
  private readonly kubeConfig: KubeConfig;
  private readonly log: Logger;
  private readonly cache: Cache;
  private readonly client: Client;
  private apiReader: Reader | undefined;
  private webhookServer: WebhookServer | undefined;
  private readonly healthz = new HealthChecks("/healthz");
  private readonly readyz = new HealthChecks("/readyz");
  private readonly groups = {
    http: new Group("http servers"),
    webhooks: new Group("webhooks"),
    caches: new Group("caches"),
    others: new Group("others"),
    leader: new Group("leader election runnables"),
  };
  private readonly servers = new Map<"metrics" | "healthProbe", Server | TLSServer>();
  private readonly recorders = new Map<string, FlushableEventRecorder>();
  private started = false;
  private cachesSynced = false;
  private resolveElected!: () => void;
  private readonly electedPromise = new Promise<void>((resolve) => {
    this.resolveElected = resolve;
  });
  private failure: ((err: Error) => void) | undefined;
  private elector: LeaderElector | undefined;
  private readonly shard: Shard | undefined;

  constructor(private readonly options: ManagerOptions) {
    if (options.leaderElection && !options.leaderElectionID) {
      throw new Error(
        "LeaderElectionID must be configured: set leaderElectionID when leaderElection is true",
      );
    }
    const filter = options.metricsFilter;
    if (filter !== undefined && filter !== "authn-authz" && filter !== "none") {
      throw new Error(`metricsFilter "${String(filter)}" is unknown; use "authn-authz" or "none"`);
    }
    if (options.leaderElection && options.sharding) {
      throw new Error(
        "leaderElection and sharding exclude each other: a sharded replica is active, holding its own shard Lease; drop leaderElection",
      );
    }
    this.kubeConfig = options.kubeConfig ?? loadKubeConfig();
    this.log = options.logger ?? createLogger();
    // The shard adds its label selector to the sharded kinds' byObject, so the manager owns a copy.
    const byObject: Record<string, ByObject> = { ...options.cache?.byObject };
    const selectors = options.cache?.selectors ? { ...options.cache.selectors } : undefined;
    const cacheOptions = { ...options.cache, byObject, selectors, logger: this.log };
    this.shard = options.sharding
      ? new Shard(options.sharding, {
          kubeConfig: this.kubeConfig,
          logger: this.log,
          cacheOptions,
          defaultNamespace: inClusterNamespace() ?? "default",
        })
      : undefined;
    const newCache = options.newCache ?? ((kc, o) => createCache(kc, o));
    this.cache = newCache(this.kubeConfig, cacheOptions);
    const newClient =
      options.newClient ?? ((kc, o) => createClient(kc, { cache: o.cache, logger: o.logger }));
    const client = newClient(this.kubeConfig, { cache: this.cache, logger: this.log });
    // With leader election, every write first checks the lease is still ours (see fence.ts); a
    // sharded replica's writes check its shard Lease the same way.
    this.client = options.leaderElection
      ? fenceWrites(
          client,
          () => this.elector?.ensureLeading() ?? Promise.resolve(),
          () => this.elector?.checkLeading(),
        )
      : this.shard
        ? this.shard.fence(client)
        : client;
    this.shard?.bind(this.cache, this.client);
    this.groups.caches.runnables.push({ needLeaderElection: false, start: (s) => this.cache.start(s) });
    // The webhook server is added only when a webhook is registered (getWebhookServer), as in
    // controller-runtime: a manager with webhook options but no webhooks needs no serving certificate.
    this.healthz.add("ping", ping);
    // Not ready until the caches have synced (and, after that, while any started informer is unsynced).
    this.readyz.add("cache-sync", async () => {
      if (!this.cachesSynced) throw new Error("caches have not synced yet");
      const ok = await this.cache.waitForCacheSync(AbortSignal.timeout(1_000));
      if (!ok) throw new Error("caches are not synced");
    });
    // Not ready while a watch is known to be stalled: its cache is silently falling behind.
    this.readyz.add("watches", async () => {
      const stalled = (this.cache as Partial<Pick<InformerCache, "stalledWatches">>).stalledWatches?.() ?? [];
      if (stalled.length > 0) {
        const what = stalled.map(
          (w) =>
            `${w.kind}${w.namespace ? ` in ${w.namespace}` : ""} for ${Math.round((Date.now() - w.since) / 1000)}s: ${w.reason}`,
        );
        throw new Error(`stalled watch: ${what.join("; ")}`);
      }
    });
  }

  getClient(): Client {
    return this.client;
  }

  getAPIReader(): Reader {
    this.apiReader ??= createAPIReader(this.kubeConfig, { logger: this.log });
    return this.apiReader;
  }

  getCache(): Cache {
    return this.cache;
  }

  getShard(): Shard | undefined {
    return this.shard;
  }

  getConfig(): KubeConfig {
    return this.kubeConfig;
  }

  getLogger(): Logger {
    return this.log;
  }

  getEventRecorderFor(name: string): EventRecorder {
    let r = this.recorders.get(name);
    if (!r) {
      r = createEventRecorder(this.client, name, this.log);
      this.recorders.set(name, r);
    }
    return r;
  }

  /** Created on first call (registering a webhook calls it) and then started with the manager. */
  getWebhookServer(): WebhookServer {
    if (!this.webhookServer) {
      const options = this.options.webhookServer ?? {};
      const enableHTTP2 = options.enableHTTP2 ?? this.options.enableHTTP2;
      // Its code is loaded when it starts (webhook-server.ts): a manager without webhooks never loads it.
      const server = new DeferredWebhookServer(async () =>
        (await import("../webhookcerts/serving.js")).createManagedWebhookServer(
          { ...options, enableHTTP2 },
          {
            kubeConfig: this.kubeConfig,
            // Uncached: the rotator reads one Secret and the webhook configurations, never worth an informer.
            client: () => createClient(this.kubeConfig, { logger: this.log }),
            namespace: inClusterNamespace,
            logger: this.log,
          },
        ),
      );
      this.webhookServer = server;
      this.addToGroup(this.groups.webhooks, server);
      this.readyz.add("webhook", () => server.started());
    }
    return this.webhookServer;
  }

  add(runnable: Runnable): void {
    if (!runnable || typeof runnable.start !== "function") {
      throw new Error("manager.add: a runnable needs a start(signal) method");
    }
    this.addToGroup(
      runnable.needLeaderElection === false ? this.groups.others : this.groups.leader,
      runnable,
    );
  }

  addHealthzCheck(name: string, check: HealthCheck): void {
    if (this.started)
      throw new Error("unable to add new health check because the manager has already started");
    this.healthz.add(name, check);
  }

  addReadyzCheck(name: string, check: HealthCheck): void {
    if (this.started)
      throw new Error("unable to add new readiness check because the manager has already started");
    this.readyz.add(name, check);
  }

  elected(): Promise<void> {
    return this.electedPromise;
  }

  httpAddress(server: "metrics" | "healthProbe") {
    const a = this.servers.get(server)?.address() as AddressInfo | null | undefined;
    return a ? { host: a.address, port: a.port } : undefined;
  }

  private addToGroup(group: Group, runnable: Runnable): void {
    group.runnables.push(runnable);
    // A controller added after the caches started, while this replica does not lead yet: warm it now.
    if (group === this.groups.leader && this.groups.caches.started && !group.started) this.warmUp(runnable);
    // Added after its group started (e.g. a controller created late): start it right away.
    if (group.started) this.run(group, runnable);
  }

  private run(group: Group, runnable: Runnable): void {
    const p = Promise.resolve()
      .then(() => runnable.start(group.abort.signal))
      .catch((err: unknown) => {
        if (group.abort.signal.aborted) {
          this.log.error({ err, group: group.name }, "runnable failed while stopping");
          return;
        }
        this.failure?.(err instanceof Error ? err : new Error(String(err)));
      });
    group.running.push(p);
  }

  private startGroup(group: Group): void {
    group.started = true;
    for (const r of group.runnables) this.run(group, r);
  }

  async start(signal: AbortSignal = new AbortController().signal): Promise<void> {
    if (this.started) throw new Error("the manager was started more than once");
    this.started = true;
    registerProcessMetrics();
    if (this.options.tracerProvider) useTracerProvider(this.options.tracerProvider);
    if (tracingWanted()) await loadTracing();

    let failed: Error | undefined;
    const stop = new Promise<void>((resolve) => {
      this.failure = (err) => {
        failed ??= err;
        resolve();
      };
      if (signal.aborted) resolve();
      else signal.addEventListener("abort", () => resolve(), { once: true });
    });
    const stopping = () => failed !== undefined || signal.aborted;
    const leaderElectionAbort = new AbortController();
    let leaseLost = false;

    try {
      await this.startHttpServers();
      if (this.webhookServer && !stopping()) {
        this.startGroup(this.groups.webhooks);
        await Promise.race([this.webhookServer.started(), stop]);
      }
      if (!stopping()) {
        // Warm-up registers the controllers' informers first, so they start and sync with the cache
        // (and /readyz waits for them): a replica is ready only once it could take over warm.
        for (const r of this.groups.leader.runnables) this.warmUp(r);
        this.startGroup(this.groups.caches);
        const synced = await this.cache.waitForCacheSync(abortOn(stop));
        if (synced) this.cachesSynced = true;
      }
      if (!stopping()) this.startGroup(this.groups.others);
      if (!stopping()) {
        if (this.options.leaderElection) {
          this.elector = this.createElector();
          const elector = this.elector;
          const run = elector.run(leaderElectionAbort.signal).then((outcome) => {
            if (outcome === "lost") {
              leaseLost = true;
              this.failure?.(new Error("leader election lost"));
            }
          });
          this.groups.http.running.push(run); // awaited at the very end, after release
        } else if (this.shard) {
          // Controllers start once this replica holds its shard Lease; the Lease is released after they stop.
          const run = this.shard
            .run(leaderElectionAbort.signal, () => this.startLeaderGroup())
            .then((outcome) => {
              if (outcome === "lost") {
                leaseLost = true;
                this.failure?.(new Error("shard lease lost"));
              }
            })
            .catch((err: unknown) => this.failure?.(err instanceof Error ? err : new Error(String(err))));
          this.groups.http.running.push(run);
        } else {
          this.startLeaderGroup();
        }
      }
    } catch (err) {
      this.failure?.(err instanceof Error ? err : new Error(String(err)));
    }

    await stop;
    if (leaseLost) {
      // controller-runtime skips graceful shutdown when the lease is lost: another replica may already lead.
      const what = this.shard ? "shard lease" : "leader election";
      this.log.error(
        this.shard
          ? { ring: this.shard.ring, identity: this.shard.identity }
          : { leaderElectionID: this.options.leaderElectionID, identity: this.elector?.identity },
        `${what} lost: stopping at once`,
      );
      for (const g of Object.values(this.groups)) g.abort.abort();
      leaderElectionAbort.abort();
      if (this.options.exitOnLeaderElectionLost ?? true) {
        this.log.error(`exiting with code 1 because ${what} was lost`);
        process.exit(1);
      }
      await this.closeHttpServers(0);
      throw failed;
    }
    if (failed) this.log.error({ err: failed }, "stopping the manager because a runnable failed");
    else await this.drain(signal);
    const stopError = await this.stopAll(leaderElectionAbort);
    if (failed) throw failed;
    if (stopError) throw stopError;
  }

  /**
   * The shutdown delay: not ready at once, everything still serving, webhook connections closed after
   * each response. A second signal exits the process (setupSignalHandler), so nothing here needs to
   * cut the delay short.
   */
  private async drain(signal: AbortSignal): Promise<void> {
    const delayMs = this.options.shutdownDelayMs ?? 0;
    if (delayMs <= 0 || !signal.aborted) return;
    this.readyz.add("shutdown", () => {
      throw new Error("shutting down");
    });
    this.webhookServer?.drain?.();
    this.log.info({ shutdownDelayMs: delayMs }, "shutting down: not ready, serving while endpoints move");
    // A timer counts from the event loop's clock, read when the loop's current turn began, so on a busy
    // process it can fire a few ms before delayMs have passed since the signal: wait out what is left.
    const deadline = performance.now() + delayMs;
    for (let left = delayMs; left > 0; left = deadline - performance.now()) {
      await sleepUnlessAborted(Math.ceil(left));
    }
  }

  /** Runs a leader-only runnable's warmUp when enabled for it (see Runnable.warmUp). */
  private warmUp(runnable: Runnable): void {
    const enabled = runnable.enableWarmup ?? this.options.enableWarmup ?? false;
    if (!enabled || !runnable.warmUp) return;
    // Under the caches' signal: warmed informers live as long as the cache.
    runnable.warmUp(this.groups.caches.abort.signal).catch((err: unknown) => {
      // Not fatal: start() sets the sources up again once this replica leads.
      this.log.error({ err }, "warm-up failed; the runnable will start cold when leading");
    });
  }

  private startLeaderGroup(): void {
    this.startGroup(this.groups.leader);
    this.resolveElected();
  }

  private createElector(): LeaderElector {
    const id = this.options.leaderElectionID as string;
    const namespace = this.options.leaderElectionNamespace ?? inClusterNamespace() ?? "default";
    const renewDeadlineMs = this.options.renewDeadlineMs ?? 10_000;
    // controller-runtime gives the leader-election client its own timeout: max(renewDeadline/2, 1s).
    const client = createClient(this.kubeConfig, {
      logger: this.log,
      rest: { timeoutMs: Math.max(renewDeadlineMs / 2, 1_000), userAgent: "kbts-manager/leader-election" },
    });
    return createLeaderElector({
      lock: leaseLock(client, namespace, id),
      name: id,
      leaseDurationMs: this.options.leaseDurationMs,
      renewDeadlineMs,
      retryPeriodMs: this.options.retryPeriodMs,
      releaseOnCancel: this.options.leaderElectionReleaseOnCancel ?? true,
      logger: this.log.child({ component: "leader-election" }),
      onStartedLeading: () => this.startLeaderGroup(),
    });
  }

  /** Stop order: leader runnables (controllers), others, caches, webhooks, HTTP servers; then release the lease. */
  private async stopAll(leaderElectionAbort: AbortController): Promise<Error | undefined> {
    const timeoutMs = this.options.gracefulShutdownTimeoutMs ?? 30_000;
    const deadline = timeoutMs < 0 ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
    const order = [this.groups.leader, this.groups.others, this.groups.caches, this.groups.webhooks];
    let timedOut = false;
    for (const g of order) {
      g.abort.abort();
      if (!(await settleBy(Promise.all(g.running), deadline))) {
        timedOut = true;
        break;
      }
      // Events recorded by the controllers that just stopped are written before the client goes.
      if (g === this.groups.others) {
        await settleBy(Promise.all([...this.recorders.values()].map((r) => r.flush())), deadline);
      }
    }
    if (timedOut) for (const g of order) g.abort.abort();
    leaderElectionAbort.abort();
    const rest = this.groups.http.running;
    const closed = this.closeHttpServers(Math.max(0, deadline - Date.now()));
    if (!timedOut && !(await settleBy(Promise.all([...rest, closed]), deadline))) timedOut = true;
    if (timedOut) {
      return new Error(`failed waiting for all runnables to end within grace period of ${timeoutMs / 1000}s`);
    }
    this.log.info("all runnables stopped");
    return undefined;
  }

  private async startHttpServers(): Promise<void> {
    const metricsAddr = this.options.metricsBindAddress ?? "0";
    if (metricsAddr !== "0") {
      const secure = this.options.metricsSecureServing ?? false;
      const server = secure ? await this.secureMetricsServer() : createMetricsServer(metricsRegistry);
      this.servers.set("metrics", server); // before listen: a failed listen still closes it (and its cert watch)
      trackConnections(server);
      await listen(server, metricsAddr, "metricsBindAddress");
      this.log.info(
        {
          address: formatAddress(server.address()),
          secure,
          protocols: offeredProtocols({ enableHTTP2: secure && this.options.enableHTTP2 }),
        },
        "serving metrics server",
      );
    }
    const probeAddr = this.options.healthProbeBindAddress ?? ":8081";
    if (probeAddr !== "0") {
      const server = createServer((req, res) => {
        if (this.healthz.handle(req, res) || this.readyz.handle(req, res)) return;
        res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("404 page not found\n");
      });
      trackConnections(server);
      await listen(server, probeAddr, "healthProbeBindAddress");
      this.servers.set("healthProbe", server);
      this.log.info({ address: formatAddress(server.address()) }, "starting health probe server");
    }
  }

  private secureMetricsServer(): Promise<TLSServer> {
    const filter = this.options.metricsFilter ?? "authn-authz";
    const log = this.log.child({ component: "metrics-server" });
    return createSecureMetricsServer(metricsRegistry, {
      certDir: this.options.metricsCertDir || undefined,
      certName: this.options.metricsCertName,
      keyName: this.options.metricsKeyName,
      enableHTTP2: this.options.enableHTTP2,
      logger: log,
      filter:
        filter === "none"
          ? undefined
          : authenticationAndAuthorizationFilter({
              reviewer: restAccessReviewer(
                new RestClient(this.kubeConfig, { userAgent: "kbts-manager/metrics-auth" }),
              ),
              logger: log,
            }),
    });
  }

  private async closeHttpServers(waitMs: number): Promise<void> {
    // Scrapes and probes are quick: a few seconds for those in flight, never the whole grace.
    const inFlightMs = Math.min(waitMs, HTTP_IN_FLIGHT_MS);
    await Promise.all([...this.servers.values()].map((s) => trackConnections(s).shutdown(inFlightMs)));
  }
}

const HTTP_IN_FLIGHT_MS = 5_000;

/** ":8080", "127.0.0.1:8080", "[::1]:0" → listening server. */
async function listen(server: Server | TLSServer, bindAddress: string, option: string): Promise<void> {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(bindAddress);
  if (!m) {
    throw new Error(
      `${option} "${bindAddress}" is not host:port; use e.g. ":8080", "127.0.0.1:8080" or "0" to disable`,
    );
  }
  const host = m[1] ?? (m[2] || undefined);
  const port = Number(m[3]);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err) =>
      reject(new Error(`${option} ${bindAddress}: ${err.message}`, { cause: err })),
    );
    server.listen({ host, port }, () => resolve());
  });
}

function abortOn(p: Promise<unknown>): AbortSignal {
  const c = new AbortController();
  void p.then(() => c.abort());
  return c.signal;
}

/** true if p settled before the deadline. */
async function settleBy(p: Promise<unknown>, deadline: number): Promise<boolean> {
  if (deadline === Number.POSITIVE_INFINITY) {
    await p;
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  const r = await Promise.race([p.then(() => true as const), timeout]);
  clearTimeout(timer);
  return r;
}
