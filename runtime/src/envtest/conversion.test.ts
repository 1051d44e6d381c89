import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GadgetV1, gadgetConverter, gadgetCRD } from "../conversion/testdata/gadget.js";
import { conversionCRDs, pointConversionAtLocalServer } from "./conversion.js";
import { type CustomResourceDefinitionLike, checkCRD } from "./crds.js";

const dir = mkdtempSync(join(tmpdir(), "envtest-conversion-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const gadget = (conversion?: Record<string, unknown>): CustomResourceDefinitionLike =>
  checkCRD({ doc: { ...gadgetCRD("v1", conversion) }, where: "gadget" });
const serving = {
  localServingHost: "127.0.0.1",
  localServingPort: 9443,
  localServingCertDir: dir,
  caData: "CA PEM",
};

describe("envtest CRD conversion", () => {
  it("converts a CRD that asks for webhook conversion, or whose kind is in conversions", () => {
    expect(conversionCRDs([gadget()], {})).toEqual(new Set());
    expect(conversionCRDs([gadget({ strategy: "Webhook" })], {})).toEqual(new Set(["gadgets.toys.kbts.dev"]));
    expect(conversionCRDs([gadget({ strategy: "None" })], { conversions: [gadgetConverter] })).toEqual(
      new Set(["gadgets.toys.kbts.dev"]),
    );
    expect(conversionCRDs([gadget()], { conversions: [GadgetV1] })).toEqual(
      new Set(["gadgets.toys.kbts.dev"]),
    );
  });

  it("converts a CRD that a patch under the webhook paths switches to webhook conversion (config/crd/patches)", () => {
    writeFileSync(
      join(dir, "webhook_in_gadgets.yaml"),
      [
        "apiVersion: apiextensions.k8s.io/v1",
        "kind: CustomResourceDefinition",
        "metadata:",
        "  name: gadgets.toys.kbts.dev",
        "spec:",
        "  conversion:",
        "    strategy: Webhook",
        "    webhook:",
        "      clientConfig:",
        "        service: { namespace: system, name: webhook-service, path: /convert }",
        "      conversionReviewVersions: [v1]",
      ].join("\n"),
    );
    expect(conversionCRDs([gadget()], { paths: [dir] })).toEqual(new Set(["gadgets.toys.kbts.dev"]));
  });

  it("points the conversion at the local server's /convert (or the service's path) and trusts its CA", () => {
    const caBundle = Buffer.from("CA PEM").toString("base64");
    expect(pointConversionAtLocalServer(gadget(), serving).spec.conversion).toEqual({
      strategy: "Webhook",
      webhook: {
        clientConfig: { url: "https://127.0.0.1:9443/convert", caBundle },
        conversionReviewVersions: ["v1"],
      },
    });
    const custom = gadget({
      strategy: "Webhook",
      webhook: {
        clientConfig: { service: { namespace: "system", name: "webhook-service", path: "/my-convert" } },
        conversionReviewVersions: ["v1", "v1beta1"],
      },
    });
    expect(
      pointConversionAtLocalServer(custom, { ...serving, localServingHost: "::1" }).spec.conversion,
    ).toEqual({
      strategy: "Webhook",
      webhook: {
        clientConfig: { url: "https://[::1]:9443/my-convert", caBundle },
        conversionReviewVersions: ["v1", "v1beta1"],
      },
    });
  });
});
