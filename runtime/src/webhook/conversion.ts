import type { KubernetesObject } from "../api/meta.js";
import { ConversionError } from "../conversion/hubspoke.js";
import { ConversionRegistry } from "../conversion/registry.js";
import { nopLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";
import { MAX_ADMISSION_REQUEST_BYTES } from "./admission.js";
import { decodeJSON, HttpError, receiveReview, send } from "./http.js";
import {
  conversionDurationSeconds,
  conversionErrorsTotal,
  conversionsTotal,
  conversionWebhookPanicsTotal,
  instrumentWebhook,
} from "./metrics.js";
import type { HttpHandler, WebhookServer } from "./types.js";

/** Where controller-runtime serves CRD conversion, and where kubebuilder's CRD patches point. */
export const CONVERT_PATH = "/convert";

/** apiextensions.k8s.io/v1 ConversionRequest. */
export interface ConversionRequest {
  uid: string;
  /** "group/version" the objects are to be converted to. */
  desiredAPIVersion: string;
  objects: KubernetesObject[];
}

/** metav1.Status as carried in a conversion response. */
export interface ConversionResult {
  status: "Success" | "Failure";
  message?: string;
}

/** apiextensions.k8s.io/v1 ConversionResponse. */
export interface ConversionResponse {
  uid: string;
  convertedObjects?: KubernetesObject[];
  result: ConversionResult;
}

const REVIEW_VERSIONS = new Set(["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"]);

interface Review {
  apiVersion: string;
  kind: "ConversionReview";
  request: ConversionRequest;
}

function parseReview(body: Buffer, contentType: string | undefined): Review {
  const review = decodeJSON(body, contentType) as Partial<Review> | null;
  if (!review || typeof review !== "object" || review.kind !== "ConversionReview") {
    throw new HttpError(400, "unable to decode the request: not a ConversionReview");
  }
  if (!REVIEW_VERSIONS.has(review.apiVersion ?? "")) {
    throw new HttpError(
      400,
      `unable to decode the request: ConversionReview apiVersion ${review.apiVersion} is not apiextensions.k8s.io/v1`,
    );
  }
  const r = review.request;
  if (!r || typeof r !== "object" || typeof r.uid !== "string") {
    throw new HttpError(400, "unable to decode the request: ConversionReview has no request with a uid");
  }
  if (typeof r.desiredAPIVersion !== "string" || !r.desiredAPIVersion) {
    throw new HttpError(400, "unable to decode the request: the request has no desiredAPIVersion");
  }
  if (!Array.isArray(r.objects)) {
    throw new HttpError(400, "unable to decode the request: the request has no objects list");
  }
  return review as Review;
}

const versionOf = (apiVersion: string | undefined): string =>
  (apiVersion ?? "").slice((apiVersion ?? "").indexOf("/") + 1);

/**
 * Converts every object of a request to its desiredAPIVersion, or fails the whole request with the
 * first error (the API server needs all or nothing), counting and timing each object.
 */
export function convertRequest(registry: ConversionRegistry, request: ConversionRequest): ConversionResponse {
  const converted: KubernetesObject[] = [];
  const to = versionOf(request.desiredAPIVersion);
  for (const obj of request.objects) {
    const group = obj?.apiVersion?.includes("/") ? obj.apiVersion.slice(0, obj.apiVersion.indexOf("/")) : "";
    const groupKind = registry.converterFor(group, obj?.kind ?? "")?.groupKind ?? `${obj?.kind}.${group}`;
    const labels = { group_kind: groupKind, from_version: versionOf(obj?.apiVersion), to_version: to };
    conversionsTotal.inc(labels);
    const stop = conversionDurationSeconds.startTimer(labels);
    try {
      converted.push(registry.convert(obj, request.desiredAPIVersion));
    } catch (err) {
      conversionErrorsTotal.inc(labels);
      if (err instanceof ConversionError) {
        return { uid: request.uid, result: { status: "Failure", message: err.message } };
      }
      // Not the user's function failing (that is a ConversionError) but the webhook itself.
      conversionWebhookPanicsTotal.inc();
      return {
        uid: request.uid,
        result: {
          status: "Failure",
          message: `internal error occurred during conversion of ${groupKind}: ${(err as Error)?.message ?? String(err)}`,
        },
      };
    } finally {
      stop();
    }
  }
  return { uid: request.uid, convertedObjects: converted, result: { status: "Success" } };
}

/**
 * Serves CRD conversion (ConversionReview apiextensions.k8s.io/v1) from a registry: several objects per
 * request, the response's uid the request's, and a conversion that throws answered with a Failure
 * result whose message names the kind, the object, both versions and the error, which kube-apiserver
 * passes on to the client. Malformed requests get 400/405/413 with a Failure review.
 */
export function serveConversion(
  registry: ConversionRegistry,
  options: { logger?: Logger; maxRequestBytes?: number; path?: string } = {},
): HttpHandler {
  const path = options.path ?? CONVERT_PATH;
  const log = (options.logger ?? nopLogger()).child({ webhook: path });
  return instrumentWebhook(path, async (req, res) => {
    const review = await receiveReview(req, res, {
      maxRequestBytes: options.maxRequestBytes ?? MAX_ADMISSION_REQUEST_BYTES,
      parse: parseReview,
      refusal: (err) => ({
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "ConversionReview",
        response: { uid: "", result: { status: "Failure", message: err.message } },
      }),
      log,
      what: "conversion",
    });
    if (typeof review === "number") return review;
    const { request } = review;
    const response = convertRequest(registry, request);
    if (response.result.status === "Failure") {
      log.error({ uid: request.uid, err: response.result.message }, "conversion failed");
    } else {
      log.debug(
        { uid: request.uid, desiredAPIVersion: request.desiredAPIVersion, objects: request.objects.length },
        "converted",
      );
    }
    send(res, 200, { apiVersion: review.apiVersion, kind: "ConversionReview", response });
    return 200;
  });
}

const registries = new WeakMap<WebhookServer, ConversionRegistry>();

/**
 * The conversion registry served at /convert on this webhook server, created and registered on first
 * use (controller-runtime's manager-wide converter registry), so each kind's builder adds its converter
 * and the server has one /convert for them all.
 */
export function conversionRegistryOf(
  server: WebhookServer,
  options: { logger?: Logger } = {},
): ConversionRegistry {
  let registry = registries.get(server);
  if (!registry) {
    registry = new ConversionRegistry();
    server.register(CONVERT_PATH, serveConversion(registry, { logger: options.logger }));
    registries.set(server, registry);
  }
  return registry;
}

/** The registry served at /convert on this server, if a builder registered one. */
export function registeredConversions(server: WebhookServer): ConversionRegistry | undefined {
  return registries.get(server);
}

/**
 * Serves `from`'s conversion registry as `to`'s too: the manager's webhook server registers paths
 * before the server they are served from is loaded (manager/webhook-server.ts).
 */
export function shareConversions(from: WebhookServer, to: WebhookServer): void {
  const registry = registries.get(from);
  if (registry) registries.set(to, registry);
}
