/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { type ParseArgsConfig, parseArgs } from "node:util";
import {
  createLogger,
  createManager,
  ping,
  setLogger,
  setupSignalHandler,
  zapFlagOptions,
  zapLoggerOptions,
} from "@kbts/runtime";
import { setupGPUBudgetController } from "../internal/controller/gpubudget_controller.js";
import { slimPod } from "../internal/gpu/podgpus.js";
import { parseDuration, parsePositiveInt, utilizationFromFlags } from "../internal/utilization/options.js";
import { setupPodWebhookWithManager } from "../internal/webhook/v1/pod_webhook.js";

// +kubebuilder:scaffold:imports

const BOOLEAN_FLAGS = ["leader-elect", "metrics-secure", "enable-http2", "zap-devel"];

/**
 * Go-style boolean flags: `--leader-elect`, `--leader-elect=true` and `--metrics-secure=false` all work,
 * as they do for a Kubebuilder manager, so the same Deployment args fit both.
 */
function normalizeBooleanFlags(args: string[]): string[] {
  return args.map((arg) => {
    const match = /^--([a-z0-9-]+)=(true|false)$/.exec(arg);
    if (!match || !BOOLEAN_FLAGS.includes(match[1] ?? "")) return arg;
    return match[2] === "true" ? `--${match[1]}` : `--no-${match[1]}`;
  });
}

/** A bad flag or flag value is reported on one line, with exit code 2, as Go's flag package does. */
function exitOnFlagError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(2);
  }
}

/** node:util's parseArgs, with exitOnFlagError. */
function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  return exitOnFlagError(() => parseArgs(config));
}

const { values: flags } = parseFlags({
  args: normalizeBooleanFlags(process.argv.slice(2)),
  allowNegative: true,
  strict: true,
  options: {
    // The most GPUBudgets reconciled at once (replicas are for failover; raise this for throughput).
    "max-concurrent-reconciles": { type: "string", default: "1" },
    // Prometheus server to read DCGM GPU utilization from (e.g. http://prometheus.monitoring:9090); off when empty.
    "prometheus-url": { type: "string", default: "" },
    // How often a budget's utilization is refreshed (requeue interval) when --prometheus-url is set.
    "utilization-interval": { type: "string", default: "60s" },
    // PromQL window utilization is averaged over.
    "utilization-window": { type: "string", default: "5m" },
    // A GPU averaging below this utilization (percent) over the window is reported idle.
    "idle-threshold": { type: "string", default: "5" },
    // Utilization metric of whole GPUs (percent), as DCGM exporter names it.
    "utilization-metric": { type: "string", default: "DCGM_FI_DEV_GPU_UTIL" },
    // Utilization metric of MIG instances (a 0-1 ratio; DCGM_FI_DEV_GPU_UTIL reads 0 on MIG).
    "mig-utilization-metric": { type: "string", default: "DCGM_FI_PROF_GR_ENGINE_ACTIVE" },
    // How long a Deny budget's reservation for an admitted pod counts at most (until every cache has seen it).
    "reservation-ttl": { type: "string", default: "30s" },
    // On SIGTERM, report not ready but keep serving the webhook this long while the Service's endpoints drop
    // this pod, then stop: admissions routed here meanwhile are answered instead of failing open.
    "shutdown-delay": { type: "string", default: "5s" },
    // Run every replica active, each caching and reconciling its share of the namespaces (a ring of this
    // name, hashed by namespace; the pod webhook forwards each admission to its namespace's replica). Needs
    // kube-apiserver 1.36+ with --feature-gates=ShardedListAndWatch=true; not with --leader-elect. Empty: off.
    "shard-ring": { type: "string", default: "" },
    // +kubebuilder:scaffold:flags
    // The address the metrics endpoint binds to. Use :8443 for HTTPS or :8080 for HTTP, or leave as 0 to disable the metrics service.
    "metrics-bind-address": { type: "string", default: "0" },
    // The address the probe endpoint binds to.
    "health-probe-bind-address": { type: "string", default: ":8081" },
    // Enable leader election for controller manager. Enabling this will ensure there is only one active controller manager.
    "leader-elect": { type: "boolean", default: false },
    // If set, the metrics endpoint is served securely via HTTPS. Use --metrics-secure=false to use HTTP instead.
    "metrics-secure": { type: "boolean", default: true },
    // The directory that contains the webhook certificate.
    "webhook-cert-path": { type: "string", default: "" },
    // The name of the webhook certificate file.
    "webhook-cert-name": { type: "string", default: "tls.crt" },
    // The name of the webhook key file.
    "webhook-cert-key": { type: "string", default: "tls.key" },
    // The port the webhook server listens on.
    "webhook-port": { type: "string", default: "9443" },
    // Keep the webhook serving certificate in this Secret, renewed by the manager, which also sets its CA as
    // the caBundle of the webhook configurations: webhooks without cert-manager (config/certrotation).
    "webhook-cert-secret": { type: "string", default: "" },
    // The Service in front of the webhook server: the certificate's DNS names with --webhook-cert-secret.
    "webhook-service-name": { type: "string", default: "gpubudget-webhook-service" },
    // The directory that contains the metrics server certificate.
    "metrics-cert-path": { type: "string", default: "" },
    // The name of the metrics server certificate file.
    "metrics-cert-name": { type: "string", default: "tls.crt" },
    // The name of the metrics server key file.
    "metrics-cert-key": { type: "string", default: "tls.key" },
    // If set, HTTP/2 will be enabled for the metrics and webhook servers.
    "enable-http2": { type: "boolean", default: false },
    // Kubebuilder's zap flags, mapped onto pino: --zap-devel (default true here: console lines, debug
    // level, stack traces from warn), --zap-encoder (json|console), --zap-log-level (debug|info|error|panic
    // or an integer verbosity), --zap-stacktrace-level (info|error|panic) and --zap-time-encoding
    // (epoch|millis|nano|iso8601|rfc3339|rfc3339nano).
    ...zapFlagOptions({ development: true }),
  },
});

const log = createLogger(exitOnFlagError(() => zapLoggerOptions(flags)));
// Every namedLogger (the webhooks' loggers) writes through it, so the zap flags reach them too.
setLogger(log);
const setupLog = log.child({ logger: "setup" });

async function main(): Promise<void> {
  // Metrics endpoint is enabled in 'config/default/kustomization.yaml'. The Metrics options configure the server.
  // More info:
  // - https://book.kubebuilder.io/reference/metrics.html
  const mgr = createManager({
    // Pods are cached slim: only what the GPU count needs (internal/gpu/podgpus.ts).
    cache: { transforms: { "v1/Pod": slimPod } },
    // A drain on SIGTERM (not ready, still serving), so a rollout or a drained node never fails admissions open.
    shutdownDelayMs: parseDuration(flags["shutdown-delay"] ?? "5s", "--shutdown-delay"),
    // --shard-ring: sharded by namespace with the API server's shardSelector (KEP-5866), so a replica's
    // Pod cache holds only its namespaces' pods, not every pod with a label written per pod.
    sharding: flags["shard-ring"]
      ? { ring: flags["shard-ring"], key: "namespace", mechanism: "shardSelector" }
      : undefined,
    // +kubebuilder:scaffold:manager-options
    metricsBindAddress: flags["metrics-bind-address"],
    metricsSecureServing: flags["metrics-secure"],
    // If the enable-http2 flag is false (the default), http/2 should be disabled
    // due to its vulnerabilities. More specifically, disabling http/2 will
    // prevent from being vulnerable to the HTTP/2 Stream Cancellation and
    // Rapid Reset CVEs. For more information see:
    // - https://github.com/advisories/GHSA-qppj-fm5r-hxr3
    // - https://github.com/advisories/GHSA-4374-p667-p6c8
    // With --enable-http2 the metrics (HTTPS) and webhook servers offer h2 and keep HTTP/1.1 for other clients.
    enableHTTP2: flags["enable-http2"],
    // With --metrics-secure, /metrics is served over HTTPS and each scrape's bearer token is checked with a
    // TokenReview and a SubjectAccessReview (get on /metrics), so only authorized users and service accounts
    // can read it. The RBAC is configured in 'config/rbac/kustomization.yaml'.
    metricsFilter: "authn-authz",
    // If --metrics-cert-path is empty, a self-signed certificate is generated at start.
    // TODO(user): for production, use certificates from cert-manager (see config/default/kustomization.yaml).
    metricsCertDir: flags["metrics-cert-path"] || undefined,
    metricsCertName: flags["metrics-cert-name"],
    metricsKeyName: flags["metrics-cert-key"],
    healthProbeBindAddress: flags["health-probe-bind-address"],
    leaderElection: flags["leader-elect"],
    leaderElectionID: "a4aa2a1b.lab.example.com",
    // Warm standby: with --leader-elect and more than one replica, followers start every controller's
    // informers before they lead, so a failover reconciles from a synced cache instead of relisting.
    // (controller-runtime's EnableWarmup, off there by default; with one replica it changes nothing.)
    enableWarmup: true,
    webhookServer: {
      port: Number(flags["webhook-port"]),
      certDir: flags["webhook-cert-path"] || undefined,
      certName: flags["webhook-cert-name"],
      keyName: flags["webhook-cert-key"],
      // With no certificate given (`make run`), a self-signed one is made; then, on a control plane of this
      // machine (`kbts envtest start`), these configurations are installed pointing at this process and
      // removed when it stops. Against another cluster the log says what to do instead.
      localManifests: ["config/webhook/manifests.yaml"],
      certRotation: flags["webhook-cert-secret"]
        ? { secretName: flags["webhook-cert-secret"], serviceName: flags["webhook-service-name"] }
        : undefined,
    },
    logger: log,
  });

  await setupGPUBudgetController(mgr, {
    maxConcurrentReconciles: parsePositiveInt(
      flags["max-concurrent-reconciles"] ?? "1",
      "--max-concurrent-reconciles",
    ),
    utilization: utilizationFromFlags(flags),
  });
  if (process.env.ENABLE_WEBHOOKS !== "false") {
    await setupPodWebhookWithManager(mgr, {
      reservationTTLMs: parseDuration(flags["reservation-ttl"] ?? "30s", "--reservation-ttl"),
      stopping: setupSignalHandler(),
    });
  }
  // +kubebuilder:scaffold:builder

  mgr.addHealthzCheck("healthz", ping);
  mgr.addReadyzCheck("readyz", ping);

  setupLog.info("starting manager");
  await mgr.start(setupSignalHandler());
}

main().catch((err: unknown) => {
  setupLog.error({ err }, "problem running manager");
  process.exit(1);
});
