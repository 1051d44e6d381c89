import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubernetesObject } from "../api/meta.js";
import { webhookManagedBy } from "../builder/index.js";
import {
  GadgetV1,
  type GadgetV1alpha1,
  gadgetV1alpha1Spoke,
  gadgetV2Spoke,
} from "../conversion/testdata/gadget.js";
import { metricsRegistry } from "../metrics/registry.js";
import { CONVERT_PATH, type ConversionResponse, conversionRegistryOf } from "./index.js";
import type { HttpHandler, WebhookServer } from "./types.js";

/** A webhook server that only records registrations, served over plain HTTP for the test. */
function recordingServer(): WebhookServer & { handlers: Map<string, HttpHandler> } {
  const handlers = new Map<string, HttpHandler>();
  return {
    handlers,
    needLeaderElection: false,
    register(path, handler) {
      if (handlers.has(path)) throw new Error(`webhook path ${path} is already registered`);
      handlers.set(path, handler);
    },
    started: async () => {},
    start: async () => {},
  };
}

const alpha = (name: string, color: string): GadgetV1alpha1 => ({
  apiVersion: "toys.kbts.dev/v1alpha1",
  kind: "Gadget",
  metadata: { name, namespace: "ns", uid: `uid-${name}` },
  spec: { replicas: 1, color },
});

async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const m = await metricsRegistry.getSingleMetric(name)?.get();
  const v = m?.values.find((x) => Object.entries(labels).every(([k, l]) => x.labels[k] === l));
  return v?.value ?? 0;
}

describe("the /convert webhook", () => {
  const webhooks = recordingServer();
  let http: Server;
  let url: string;

  beforeAll(async () => {
    const paths = webhookManagedBy({ getWebhookServer: () => webhooks }, GadgetV1)
      .withConversion(gadgetV1alpha1Spoke, gadgetV2Spoke)
      .complete();
    expect(paths).toEqual({ convertPath: "/convert" });
    const handler = webhooks.handlers.get(CONVERT_PATH) as HttpHandler;
    http = createServer((req, res) => void handler(req, res));
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}${CONVERT_PATH}`;
  });
  afterAll(() => new Promise<void>((r) => http.close(() => r())));

  const convert = async (body: unknown, contentType = "application/json") => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": contentType },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return {
      status: res.status,
      review: (await res.json()) as { apiVersion: string; kind: string; response: ConversionResponse },
    };
  };
  const review = (desiredAPIVersion: string, objects: KubernetesObject[], uid = "req-1") => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    request: { uid, desiredAPIVersion, objects },
  });

  it("converts several objects to desiredAPIVersion and echoes the uid", async () => {
    const { status, review: out } = await convert(
      review("toys.kbts.dev/v2", [alpha("a", "red"), alpha("b", "blue")], "uid-42"),
    );
    expect(status).toBe(200);
    expect(out.apiVersion).toBe("apiextensions.k8s.io/v1");
    expect(out.kind).toBe("ConversionReview");
    expect(out.response.uid).toBe("uid-42");
    expect(out.response.result).toEqual({ status: "Success" });
    expect(
      out.response.convertedObjects?.map((o) => [
        o.apiVersion,
        o.metadata?.name,
        (o as { spec: unknown }).spec,
      ]),
    ).toEqual([
      ["toys.kbts.dev/v2", "a", { replicas: 1, appearance: { colors: ["red"] } }],
      ["toys.kbts.dev/v2", "b", { replicas: 1, appearance: { colors: ["blue"] } }],
    ]);
  });

  it("answers a throwing conversion with a Failure naming the kind, object, versions and error, and counts it", async () => {
    const labels = { group_kind: "Gadget.toys.kbts.dev", from_version: "v1alpha1", to_version: "v1" };
    const errorsBefore = await metric(
      "controller_runtime_conversion_webhook_conversion_errors_total",
      labels,
    );
    const totalBefore = await metric("controller_runtime_conversion_webhook_conversions_total", labels);
    const { status, review: out } = await convert(
      review("toys.kbts.dev/v1", [alpha("fine", "red"), alpha("bad", "poison")], "uid-7"),
    );
    expect(status).toBe(200);
    expect(out.response.uid).toBe("uid-7");
    expect(out.response.convertedObjects).toBeUndefined();
    expect(out.response.result).toEqual({
      status: "Failure",
      message:
        'converting Gadget.toys.kbts.dev ns/bad from v1alpha1 to v1: v1alpha1 convertTo (to hub v1) threw: color "poison" cannot be converted',
    });
    expect(await metric("controller_runtime_conversion_webhook_conversion_errors_total", labels)).toBe(
      errorsBefore + 1,
    );
    expect(await metric("controller_runtime_conversion_webhook_conversions_total", labels)).toBe(
      totalBefore + 2,
    );
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(
      /controller_runtime_conversion_webhook_conversion_duration_seconds_count\{group_kind="Gadget.toys.kbts.dev",from_version="v1alpha1",to_version="v1"\} \d+/,
    );
    expect(text).toMatch(/controller_runtime_webhook_requests_total\{webhook="\/convert",code="200"\} [1-9]/);
    expect(text).toContain("controller_runtime_conversion_webhook_panics_total 0");
  });

  it("fails a kind with no converter, naming what is registered", async () => {
    const { review: out } = await convert(
      review("apps/v1beta1", [
        { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d", namespace: "ns" } },
      ]),
    );
    expect(out.response.result.message).toBe(
      "converting Deployment.apps ns/d from v1 to v1beta1: no converter is registered for Deployment.apps (registered: Gadget.toys.kbts.dev)",
    );
  });

  it("refuses malformed reviews with 400 and says why", async () => {
    expect((await convert("{", "application/json")).status).toBe(400);
    const wrongType = await convert(review("toys.kbts.dev/v1", []), "text/plain");
    expect(wrongType.status).toBe(400);
    expect(wrongType.review.response.result.message).toBe(
      "contentType=text/plain, expected application/json",
    );
    const noVersion = await convert({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: { uid: "x", objects: [] },
    });
    expect(noVersion.review.response.result.message).toBe(
      "unable to decode the request: the request has no desiredAPIVersion",
    );
    const admission = await convert({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: { uid: "x" },
    });
    expect(admission.review.response.result.message).toBe(
      "unable to decode the request: not a ConversionReview",
    );
  });

  it("has one /convert per server, shared by every kind's builder", () => {
    expect(
      conversionRegistryOf(webhooks)
        .list()
        .map((c) => c.groupKind),
    ).toEqual(["Gadget.toys.kbts.dev"]);
    expect([...webhooks.handlers.keys()]).toEqual(["/convert"]);
    expect(() =>
      webhookManagedBy({ getWebhookServer: () => webhooks }, GadgetV1)
        .withConversion(gadgetV2Spoke)
        .complete(),
    ).toThrow("a converter for Gadget.toys.kbts.dev is already registered");
  });

  it("needs at least one spoke", () => {
    expect(() => webhookManagedBy({ getWebhookServer: recordingServer }, GadgetV1).withConversion()).toThrow(
      "webhookManagedBy(Gadget).withConversion(): give the spokes, one per version other than the hub v1",
    );
  });
});
