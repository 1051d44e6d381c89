import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findBinary, resolveBinaries } from "./binaries.js";
import { readCRDs } from "./crds.js";
import { kubeconfigYAML, parseGoDuration } from "./environment.js";
import { flagsToArgs } from "./process.js";
import { assetEnvVar, storeRoot, storeVersionDir } from "./store.js";

const testdata = join(import.meta.dirname, "testdata");

describe("parseGoDuration", () => {
  it("reads Go durations as milliseconds", () => {
    expect(parseGoDuration("20s")).toBe(20_000);
    expect(parseGoDuration("1m30s")).toBe(90_000);
    expect(parseGoDuration("250ms")).toBe(250);
    expect(parseGoDuration("1.5h")).toBe(5_400_000);
  });
  it("ignores unset or malformed values", () => {
    expect(parseGoDuration(undefined)).toBeUndefined();
    expect(parseGoDuration("20")).toBeUndefined();
    expect(parseGoDuration("20s junk")).toBeUndefined();
  });
});

describe("flagsToArgs", () => {
  it("emits --name=value sorted by name, as envtest does", () => {
    expect(
      flagsToArgs({ "secure-port": "1", "allow-privileged": "true", "bind-address": "127.0.0.1" }),
    ).toEqual(["--allow-privileged=true", "--bind-address=127.0.0.1", "--secure-port=1"]);
  });
});

describe("store layout", () => {
  it("follows setup-envtest: XDG_DATA_HOME or ~/.local/share, then kubebuilder-envtest/k8s/<ver>-<os>-<arch>", () => {
    expect(storeRoot({ XDG_DATA_HOME: "/data" })).toBe("/data/kubebuilder-envtest");
    expect(storeRoot({ HOME: "/home/u" })).toBe("/home/u/.local/share/kubebuilder-envtest");
    expect(storeVersionDir("v1.36.3", { XDG_DATA_HOME: "/data" })).toMatch(
      /^\/data\/kubebuilder-envtest\/k8s\/1\.36\.3-linux-(amd64|arm64)$/,
    );
    expect(assetEnvVar("kube-apiserver")).toBe("TEST_ASSET_KUBE_APISERVER");
  });
});

describe("binary lookup", () => {
  let dir: string;
  const fakeBin = (d: string, name: string) => {
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, name), "#!/bin/sh\n");
    chmodSync(join(d, name), 0o755);
    return join(d, name);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "kbts-bin-test-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("prefers TEST_ASSET_*, then KUBEBUILDER_ASSETS, then binaryAssetsDirectory, then the store", () => {
    const data = join(dir, "data");
    const store = storeVersionDir("1.36.3", { XDG_DATA_HOME: data });
    const fromStore = fakeBin(store, "etcd");
    const fromDir = fakeBin(join(dir, "assets"), "etcd");
    const fromEnv = fakeBin(join(dir, "kb"), "etcd");
    const fromVar = fakeBin(join(dir, "var"), "etcd");
    const env = { XDG_DATA_HOME: data, KUBEBUILDER_ASSETS: join(dir, "kb"), TEST_ASSET_ETCD: fromVar };
    const assets = join(dir, "assets");
    // The store only counts when it holds all three binaries.
    fakeBin(store, "kube-apiserver");
    fakeBin(store, "kubectl");
    expect(findBinary("etcd", { env, binaryAssetsDirectory: assets })).toBe(fromVar);
    expect(
      findBinary("etcd", { env: { ...env, TEST_ASSET_ETCD: undefined }, binaryAssetsDirectory: assets }),
    ).toBe(fromEnv);
    expect(findBinary("etcd", { env: { XDG_DATA_HOME: data }, binaryAssetsDirectory: assets })).toBe(fromDir);
    expect(findBinary("etcd", { env: { XDG_DATA_HOME: data } })).toBe(fromStore);
  });

  it("names the variables and the setup command when nothing is found", () => {
    const env = { XDG_DATA_HOME: join(dir, "empty"), KUBEBUILDER_ASSETS: join(dir, "nothing") };
    expect(() => resolveBinaries({ env })).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(
          /no etcd or kube-apiserver binary found \(KUBEBUILDER_ASSETS=.*nothing\); looked at TEST_ASSET_ETCD, TEST_ASSET_KUBE_APISERVER/,
        ),
        fix: expect.stringContaining("kbts setup-envtest use"),
      }),
    );
  });
});

describe("readCRDs", () => {
  it("reads multi-document files from a directory, skipping kustomization and non-manifest files", () => {
    const crds = readCRDs([join(testdata, "crds")], true);
    expect(crds.map((c) => c.crd.spec.names.plural)).toEqual(["widgets", "gadgets"]);
    expect(crds[1]?.where).toMatch(/widgets\.yaml:\d+$/);
  });
  it("skips a missing path unless errorIfPathMissing", () => {
    expect(readCRDs([join(testdata, "nope")], false)).toEqual([]);
    expect(() => readCRDs([join(testdata, "nope")], true)).toThrow(/CRD path .*nope does not exist/);
  });
  it("names the file, line and kind of a document that is not a CRD", () => {
    expect(() => readCRDs([join(testdata, "not-crd", "configmap.yaml")], true)).toThrow(
      /configmap\.yaml:1: a ConfigMap, not a CustomResourceDefinition/,
    );
  });
  it("names the file, line and column of a YAML syntax error", () => {
    const d = mkdtempSync(join(tmpdir(), "kbts-crd-test-"));
    try {
      writeFileSync(join(d, "bad.yaml"), "kind: CustomResourceDefinition\nspec: [a, b\n");
      expect(() => readCRDs([d], true)).toThrow(/bad\.yaml:\d+:\d+: invalid YAML/);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe("kubeconfigYAML", () => {
  it("names cluster, user and context envtest", () => {
    const text = kubeconfigYAML({ host: "https://127.0.0.1:1", caData: "CA", certData: "C", keyData: "K" });
    expect(text).toContain("current-context: envtest");
    expect(text).toContain("server: https://127.0.0.1:1");
    expect(text).toContain(`certificate-authority-data: ${Buffer.from("CA").toString("base64")}`);
  });
});
