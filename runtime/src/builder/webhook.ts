import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { hubAndSpokes, type SpokeConversion } from "../conversion/hubspoke.js";
import type { Logger } from "../log/types.js";
import type { Manager } from "../manager/types.js";
import { type ForwardToShardOwnerOptions, httpsPeerPost, shardOwnerRouter } from "../sharding/forward.js";
import { defaultWebhookAddress } from "../sharding/owner.js";
import { type AdmissionRouter, serveAdmission } from "../webhook/admission.js";
import { CONVERT_PATH, conversionRegistryOf } from "../webhook/conversion.js";
import {
  type CustomDefaulter,
  type CustomValidator,
  defaultingHandler,
  validatingHandler,
} from "../webhook/custom.js";
import type { HttpsWebhookServer } from "../webhook/server.js";

function pathSuffix(kind: Kind): string {
  return `${kind.group.replace(/\./g, "-")}-${kind.version}-${kind.kind.toLowerCase()}`;
}

/** controller-runtime's generated path: /validate-<group, dots as dashes>-<version>-<kind>; "/validate--v1-pod" for Pods. */
export function validatingWebhookPath(kind: Kind): string {
  return `/validate-${pathSuffix(kind)}`;
}

/** /mutate-<group, dots as dashes>-<version>-<kind>. */
export function mutatingWebhookPath(kind: Kind): string {
  return `/mutate-${pathSuffix(kind)}`;
}

/** What webhookManagedBy needs from a manager. */
export type WebhookHost = Pick<Manager, "getWebhookServer"> &
  Partial<Pick<Manager, "getLogger" | "getShard">>;

export interface WebhookBuilder<T extends KubernetesObject> {
  withValidator(validator: CustomValidator<T>): WebhookBuilder<T>;
  withDefaulter(defaulter: CustomDefaulter<T>): WebhookBuilder<T>;
  /** Overrides the generated /validate-... path. */
  withValidatorCustomPath(path: string): WebhookBuilder<T>;
  /** Overrides the generated /mutate-... path. */
  withDefaulterCustomPath(path: string): WebhookBuilder<T>;
  /**
   * Serves CRD conversion for this kind at /convert, with the builder's kind as the hub and these
   * spokes (one for every other version); spoke to spoke goes through the hub.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a spoke of any object type fits; defineSpoke typed its functions
  withConversion(...spokes: SpokeConversion<T, any>[]): WebhookBuilder<T>;
  /**
   * For a sharded manager (sharding.key "namespace"): each admission request of this webhook (validating
   * and defaulting) is answered by the replica that owns the request's namespace, once its cache holds
   * all of it; the others forward it there (see sharding/forward.ts). For webhooks that read sharded
   * kinds from the cache. A no-op without sharding.
   */
  forwardToShardOwner(options?: ForwardToShardOwnerOptions): WebhookBuilder<T>;
  /** Registers the handlers on the manager's webhook server; returns the registered paths. */
  complete(): { validatePath?: string; mutatePath?: string; convertPath?: string };
}

/** controller-runtime's WebhookManagedBy: validating, defaulting and conversion webhooks for one kind. */
export function webhookManagedBy<T extends KubernetesObject>(
  mgr: WebhookHost,
  kind: Kind<T>,
): WebhookBuilder<T> {
  let validator: CustomValidator<T> | undefined;
  let defaulter: CustomDefaulter<T> | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: see withConversion
  let spokes: SpokeConversion<T, any>[] | undefined;
  let validatePath = validatingWebhookPath(kind);
  let mutatePath = mutatingWebhookPath(kind);
  let forwarding: ForwardToShardOwnerOptions | undefined;
  let done = false;
  const builder: WebhookBuilder<T> = {
    withValidator(v) {
      validator = v;
      return builder;
    },
    withDefaulter(d) {
      defaulter = d;
      return builder;
    },
    withConversion(...given) {
      if (given.length === 0) {
        throw new Error(
          `webhookManagedBy(${kind.kind}).withConversion(): give the spokes, one per version other than the hub ${kind.version}`,
        );
      }
      spokes = given;
      return builder;
    },
    forwardToShardOwner(options = {}) {
      const shard = mgr.getShard?.();
      if (shard && shard.key !== "namespace") {
        throw new Error(
          `webhookManagedBy(${kind.kind}).forwardToShardOwner(): the manager's sharding.key is "${shard.key}", but forwarding finds the owner of the request's namespace; set sharding.key "namespace"`,
        );
      }
      forwarding = options;
      return builder;
    },
    withValidatorCustomPath(path) {
      validatePath = path;
      return builder;
    },
    withDefaulterCustomPath(path) {
      mutatePath = path;
      return builder;
    },
    complete() {
      if (done) throw new Error(`webhookManagedBy(${kind.kind}).complete() called twice`);
      if (!validator && !defaulter && !spokes) {
        throw new Error(
          `webhookManagedBy(${kind.kind}): call withValidator(), withDefaulter() and/or withConversion() before complete()`,
        );
      }
      // Built before anything is registered, so a bad spoke leaves the server untouched.
      const converter = spokes ? hubAndSpokes(kind, ...spokes) : undefined;
      done = true;
      const server = mgr.getWebhookServer();
      const logger: Logger | undefined = mgr.getLogger?.().child({ webhookKind: kind.kind });
      const out: { validatePath?: string; mutatePath?: string; convertPath?: string } = {};
      if (converter) {
        conversionRegistryOf(server, { logger: mgr.getLogger?.() }).register(converter);
        out.convertPath = CONVERT_PATH;
      }
      const shard = forwarding && mgr.getShard?.();
      let route: (path: string) => AdmissionRouter | undefined = () => undefined;
      if (shard && forwarding) {
        const https = server as Partial<HttpsWebhookServer>;
        shard.advertiseWebhook(() => defaultWebhookAddress(https.address?.()));
        const post = httpsPeerPost(() => https.servingCertificate?.(), shard.identity);
        const options = { ...forwarding, logger };
        route = (path) => shardOwnerRouter(shard, path, post, options);
      }
      if (defaulter) {
        server.register(
          mutatePath,
          serveAdmission(mutatePath, defaultingHandler(defaulter), { logger, route: route(mutatePath) }),
        );
        out.mutatePath = mutatePath;
      }
      if (validator) {
        server.register(
          validatePath,
          serveAdmission(validatePath, validatingHandler(validator), { logger, route: route(validatePath) }),
        );
        out.validatePath = validatePath;
      }
      return out;
    },
  };
  return builder;
}
