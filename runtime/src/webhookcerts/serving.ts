/**
 * Where the webhook server's certificate comes from, chosen once when the server is made:
 * - "files": certDir (or controller-runtime's default directory) holds it, e.g. from cert-manager;
 * - "rotation": the operator keeps its own in a Secret and injects the caBundle (CertRotator) into the
 *   webhook configurations and the CRDs of the kinds converted at /convert;
 * - "self-signed": nothing was given (`make run`): a certificate for this machine, and on a local
 *   control plane the webhook configurations are installed pointing here, and removed on stop; the
 *   CRDs of kinds converted at /convert get their conversion webhook pointed here, restored on stop.
 */

import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeConfig } from "../client/kubeconfig.js";
import type { Client } from "../client/types.js";
import type { Logger } from "../log/types.js";
import { LOOPBACK_HOSTS, selfSignedServingCertificate, writeServingFiles } from "../tls/selfsigned.js";
import { registeredConversions } from "../webhook/conversion.js";
import {
  createWebhookServer,
  defaultCertDir,
  type HttpsWebhookServer,
  type ServedCertificate,
  type WebhookServerOptions,
} from "../webhook/server.js";
import type { HttpHandler } from "../webhook/types.js";
import {
  type InstalledWebhookConfiguration,
  installLocalWebhooks,
  isLoopbackServer,
  type LocalConversion,
  localServingURL,
  pointConversionsAtLocalServer,
  removeLocalWebhooks,
  restoreConversions,
} from "./local.js";
import { type CertRotationOptions, CertRotator } from "./rotator.js";

export type ServingMode = "files" | "rotation" | "self-signed";

export interface ManagedWebhookServerOptions extends WebhookServerOptions {
  /**
   * Webhook configuration manifests (e.g. config/webhook/manifests.yaml) to install, pointing at this
   * process, when it serves a self-signed certificate on a control plane of this machine.
   */
  localManifests?: string[];
  /** Keep the serving certificate in a Secret and inject its CA (instead of reading cert-manager's files). */
  certRotation?: CertRotationOptions;
}

export interface ManagedWebhookServer extends HttpsWebhookServer {
  readonly servingMode: ServingMode;
  /** The directory the server reads its certificate from. */
  readonly certDir: string;
}

/** Which certificate source options select (see the module comment). */
export function servingModeOf(options: ManagedWebhookServerOptions): ServingMode {
  if (options.certRotation) return "rotation";
  if (options.certDir) return "files";
  return existsSync(join(defaultCertDir(), options.certName ?? "tls.crt")) ? "files" : "self-signed";
}

interface ServingContext {
  kubeConfig: KubeConfig;
  client: () => Client;
  namespace: () => string | undefined;
  logger: Logger;
}

export function createManagedWebhookServer(
  options: ManagedWebhookServerOptions,
  context: ServingContext,
): ManagedWebhookServer {
  const mode = servingModeOf(options);
  const ownDir = mode !== "files" && !options.certDir;
  const certDir =
    options.certDir ??
    (ownDir
      ? join(tmpdir(), `kbts-webhook-certs-${process.pid}-${randomBytes(4).toString("hex")}`)
      : defaultCertDir());
  const names = { certName: options.certName ?? "tls.crt", keyName: options.keyName ?? "tls.key" };
  const server = createWebhookServer({ ...options, ...names, certDir, logger: context.logger });
  if (mode === "files") return Object.assign(server, { servingMode: mode, certDir });
  return new CertificateManagingServer(server, mode, certDir, ownDir, names, options, context);
}

/**
 * The webhook server, started behind the certificate it needs: a rotated one or a self-signed one
 * (see the module comment). Everything else is the wrapped server's.
 */
class CertificateManagingServer implements ManagedWebhookServer {
  readonly needLeaderElection: boolean | undefined;
  private readonly log: Logger;

  constructor(
    private readonly server: HttpsWebhookServer,
    readonly servingMode: "rotation" | "self-signed",
    readonly certDir: string,
    /** The directory was made for this process, and is removed when it stops. */
    private readonly ownDir: boolean,
    private readonly names: { certName: string; keyName: string },
    private readonly options: ManagedWebhookServerOptions,
    private readonly context: ServingContext,
  ) {
    this.needLeaderElection = server.needLeaderElection;
    this.log = context.logger.child({ component: "webhook-certs" });
  }

  register(path: string, handler: HttpHandler): void {
    this.server.register(path, handler);
  }

  started(): Promise<void> {
    return this.server.started();
  }

  address(): { host: string; port: number } | undefined {
    return this.server.address();
  }

  paths(): string[] {
    return this.server.paths();
  }

  servingCertificate(): ServedCertificate | undefined {
    return this.server.servingCertificate?.();
  }

  drain(): void {
    this.server.drain?.();
  }

  async start(signal: AbortSignal): Promise<void> {
    try {
      if (this.servingMode === "rotation") await this.startRotating(signal);
      else await this.startSelfSigned(signal);
    } finally {
      if (this.ownDir) await rm(this.certDir, { recursive: true, force: true });
    }
  }

  private async startRotating(signal: AbortSignal): Promise<void> {
    const { options, context, log, server } = this;
    const rotation = options.certRotation as CertRotationOptions;
    const namespace = rotation.namespace ?? context.namespace();
    if (!namespace) {
      throw new Error(
        "webhook certificate rotation needs the namespace of its Secret and Service: run in a pod (or with KBTS_SERVICE_ACCOUNT_DIR) or set certRotation.namespace",
      );
    }
    // The CRDs this server converts are the ones whose conversion webhook can call it: the rotator reads
    // them by name, which the certrotation ClusterRole grants for exactly the project's converted kinds.
    const conversionCRDs =
      rotation.conversionCRDs ??
      (registeredConversions(this)?.list() ?? []).map((c) => `${c.hub.plural}.${c.hub.group}`);
    const rotator = new CertRotator(
      context.client(),
      { ...rotation, namespace, conversionCRDs },
      { dir: this.certDir, ...this.names },
      log,
    );
    let ready!: () => void;
    const first = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const rotating = rotator.run(signal, ready);
    await Promise.race([first, rotating]);
    if (signal.aborted) return;
    await Promise.all([server.start(signal), rotating]);
  }

  private async startSelfSigned(signal: AbortSignal): Promise<void> {
    const { options, context, log, server, certDir } = this;
    const pair = selfSignedServingCertificate([...LOOPBACK_HOSTS, hostname()], "kbts-local-webhook-ca");
    await writeServingFiles(certDir, this.names, pair);
    log.info(
      { certDir },
      "no webhook serving certificate given: serving a self-signed one for this machine (in a cluster, use cert-manager or certRotation)",
    );
    const serving = server.start(signal);
    const serverURL = context.kubeConfig.getCurrentCluster()?.server;
    let installed: InstalledWebhookConfiguration[] = [];
    let conversions: LocalConversion[] = [];
    const client = context.client();
    const converted = (registeredConversions(this)?.list() ?? []).map((c) => c.hub);
    if ((options.localManifests && options.localManifests.length > 0) || converted.length > 0) {
      await Promise.race([server.started(), serving]);
      if (!isLoopbackServer(serverURL)) {
        log.warn(
          { apiServer: serverURL },
          "webhook configurations NOT installed: the API server is not on this machine, so it cannot call this process. " +
            "Deploy the operator with `make deploy` (cert-manager, or the cert-rotation component) to test webhooks on that cluster, " +
            "or run without them: ENABLE_WEBHOOKS=false make run",
        );
      } else {
        const port = server.address()?.port ?? options.port ?? 9443;
        const url = localServingURL("127.0.0.1", port);
        try {
          if (options.localManifests && options.localManifests.length > 0) {
            installed = await installLocalWebhooks({
              client,
              manifests: options.localManifests,
              host: "127.0.0.1",
              port,
              caCert: pair.caCert,
            });
            log.info(
              { configurations: installed.map((c) => c.name), url },
              "local control plane: webhook configurations installed pointing at this process (removed on stop)",
            );
          }
          conversions = await pointConversionsAtLocalServer({
            client,
            groupKinds: converted,
            host: "127.0.0.1",
            port,
            caCert: pair.caCert,
          });
          if (conversions.length > 0) {
            log.info(
              { crds: conversions.map((c) => c.crd), url: `${url}/convert` },
              "local control plane: CRD conversion webhooks pointed at this process (restored on stop)",
            );
          }
        } catch (err) {
          // The manager still runs; only admission and conversion through the API server are missing, and the log says why.
          log.error({ err }, "cannot install the webhook configurations on the local control plane");
        }
      }
    }
    try {
      await serving;
    } finally {
      if (installed.length > 0) {
        await removeLocalWebhooks(client, installed).then(
          () => log.info("local webhook configurations removed"),
          (err: unknown) => log.error({ err }, "cannot remove the local webhook configurations"),
        );
      }
      if (conversions.length > 0) {
        await restoreConversions(client, conversions).then(
          () => log.info("CRD conversion webhooks restored"),
          (err: unknown) => log.error({ err }, "cannot restore the CRDs' conversion webhooks"),
        );
      }
    }
  }
}
