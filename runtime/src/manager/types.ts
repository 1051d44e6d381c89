import type { Cache, CacheOptions } from "../cache/types.js";
import type { KubeConfig } from "../client/kubeconfig.js";
import type { Client, Reader } from "../client/types.js";
import type { EventRecorder } from "../events/types.js";
import type { HealthCheck } from "../healthz/healthz.js";
import type { Logger } from "../log/types.js";
import type { Runnable } from "../runnable.js";
import type { Shard, ShardingOptions } from "../sharding/shard.js";
import type { TracerProviderLike } from "../tracing/tracing.js";
import type { WebhookServer } from "../webhook/types.js";
import type { CertRotationOptions } from "../webhookcerts/rotator.js";

export type { Runnable } from "../runnable.js";

export interface ManagerOptions {
  /** Defaults to KUBECONFIG / ~/.kube/config / in-cluster config. */
  kubeConfig?: KubeConfig;
  /** "0" disables; default "0" like Kubebuilder's scaffold; ":8443" with metricsSecureServing, ":8080" for plain HTTP. */
  metricsBindAddress?: string;
  /**
   * Serve /metrics over HTTPS (controller-runtime's SecureServing; Kubebuilder's scaffold turns it on
   * with --metrics-secure). Default false: plain HTTP.
   */
  metricsSecureServing?: boolean;
  /** Directory with the metrics serving cert and key, reloaded on change; unset: a self-signed cert made at start. */
  metricsCertDir?: string;
  /** "tls.crt" by default. */
  metricsCertName?: string;
  /** "tls.key" by default. */
  metricsKeyName?: string;
  /**
   * With secure serving: "authn-authz" (default) checks each bearer token with a TokenReview and
   * the user with a SubjectAccessReview for get on the non-resource URL /metrics (Kubebuilder's
   * filters.WithAuthenticationAndAuthorization); "none" serves anyone who reaches the port.
   */
  metricsFilter?: "authn-authz" | "none";
  /**
   * Offer HTTP/2 on the HTTPS metrics server and the webhook server (ALPN h2, HTTP/1.1 kept for other
   * clients); Kubebuilder's `--enable-http2`. Default false: HTTP/1.1 only, as Kubebuilder, against the
   * HTTP/2 Stream Cancellation and Rapid Reset CVEs. Plain-HTTP metrics stay HTTP/1.1 (no h2c), as in
   * controller-runtime. webhookServer.enableHTTP2, when set, decides for the webhook server alone.
   */
  enableHTTP2?: boolean;
  /** ":8081" by default; "0" disables. */
  healthProbeBindAddress?: string;
  leaderElection?: boolean;
  leaderElectionID?: string;
  /** Defaults to the pod's namespace (in-cluster) or "default". */
  leaderElectionNamespace?: string;
  /** client-go defaults: 15 s / 10 s / 2 s. */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /**
   * The webhook server. Its certificate comes from certDir (e.g. cert-manager's Secret), from a Secret
   * the operator keeps itself (certRotation), or, when neither is given and controller-runtime's default
   * directory is empty, a self-signed one; then, on a control plane of this machine, the configurations
   * in localManifests are installed pointing at this process (the `make run` loop).
   */
  webhookServer?: {
    port?: number;
    host?: string;
    certDir?: string;
    certName?: string;
    keyName?: string;
    localManifests?: string[];
    certRotation?: CertRotationOptions;
    enableHTTP2?: boolean;
  };
  cache?: CacheOptions;
  /**
   * Shard the controllers' For kinds across active replicas (see the README's "Sharding"): each
   * replica holds a shard Lease in the ring, and reconciles (and caches) only the objects the ring
   * assigns it. Off by default; not with leaderElection (every replica is active). A lost shard Lease
   * stops the manager as a lost leader election does (exitOnLeaderElectionLost).
   */
  sharding?: ShardingOptions;
  /**
   * Default for every controller's enableWarmup (controller-runtime's Controller.EnableWarmup):
   * informers for every controller's watches start before this replica leads, so a new leader
   * starts its workers on a synced cache instead of relisting. Followers then hold a full cache and
   * a watch each; /readyz waits for it. Default false, as controller-runtime (a single replica gains
   * nothing); worth it with leader election and a standby replica.
   */
  enableWarmup?: boolean;
  /**
   * Hand the lease back on a clean stop, after every controller has finished, so a standby takes
   * over at once. Default true (controller-runtime's LeaderElectionReleaseOnCancel defaults to
   * false because its Start may return before runnables end; ours resolves only after they have).
   */
  leaderElectionReleaseOnCancel?: boolean;
  /**
   * On losing the lease, log it and exit the process with code 1 (default true), as controller-runtime
   * expects of its callers. With false, start() rejects with Error("leader election lost") instead.
   */
  exitOnLeaderElectionLost?: boolean;
  /** Graceful shutdown bound; default 30 s as controller-runtime. 0 stops without waiting; negative waits forever. */
  gracefulShutdownTimeoutMs?: number;
  /**
   * On a stop signal, first report not ready and keep serving (webhooks, metrics, probes; controllers
   * keep running) for this long, then stop as usual (kube-apiserver's --shutdown-delay-duration). Meant
   * for webhooks behind a Service: the endpoints take a moment to drop a terminating pod, and requests
   * routed to it meanwhile must still be answered, or a webhook with failurePolicy Ignore fails open.
   * While draining, every webhook response closes its connection, so clients reconnect to a ready
   * replica. Not applied when the stop is a failure or a lost lease. Default 0 (no delay).
   */
  shutdownDelayMs?: number;
  logger?: Logger;
  /**
   * Where the runtime's OpenTelemetry spans go (for the whole process) instead of the global tracer
   * provider. Tracing needs the optional peer dependency @opentelemetry/api; see the README.
   */
  tracerProvider?: TracerProviderLike;
  /** Replace the informer cache (controller-runtime's NewCache); default createCache. */
  newCache?: (kubeConfig: KubeConfig, options: CacheOptions & { logger?: Logger }) => Cache;
  /** Replace the client (controller-runtime's NewClient); default createClient reading from the cache. */
  newClient?: (kubeConfig: KubeConfig, options: { cache: Cache; logger?: Logger }) => Client;
}

export interface Manager {
  getClient(): Client;
  /** Uncached reads straight from the API server. */
  getAPIReader(): Reader;
  getCache(): Cache;
  getConfig(): KubeConfig;
  getLogger(): Logger;
  getEventRecorderFor(name: string): EventRecorder;
  getWebhookServer(): WebhookServer;
  /** This replica's membership of its shard ring, when the manager is sharded (options.sharding). */
  getShard?(): Shard | undefined;
  add(runnable: Runnable): void;
  addHealthzCheck(name: string, check: HealthCheck): void;
  addReadyzCheck(name: string, check: HealthCheck): void;
  /** Starts servers, webhooks, caches, then (once leader) controllers; resolves after a clean stop. */
  start(signal?: AbortSignal): Promise<void>;
  /** Resolves once this replica is leader (immediately without leader election). */
  elected(): Promise<void>;
  /** Where the metrics or health-probe server listens once started (handy with port 0); undefined when disabled. */
  httpAddress(server: "metrics" | "healthProbe"): { host: string; port: number } | undefined;
}
