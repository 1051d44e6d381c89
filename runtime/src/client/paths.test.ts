import { describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import { ConfigMap, CustomResourceDefinition, Deployment, Namespace, Pod } from "../api/kinds.js";
import { queryString, resourcePath } from "./paths.js";

const GPUBudget = defineKind({
  group: "ml.example.com",
  version: "v1alpha1",
  kind: "GPUBudget",
  plural: "gpubudgets",
  namespaced: true,
});

describe("resourcePath", () => {
  it("puts the core group under /api/v1", () => {
    expect(resourcePath(Pod, { namespace: "default", name: "web-0" })).toBe(
      "/api/v1/namespaces/default/pods/web-0",
    );
    expect(resourcePath(Namespace, { name: "kube-system" })).toBe("/api/v1/namespaces/kube-system");
  });

  it("puts other groups under /apis/<group>/<version>, CRDs included", () => {
    expect(resourcePath(Deployment, { namespace: "prod" })).toBe("/apis/apps/v1/namespaces/prod/deployments");
    expect(resourcePath(GPUBudget, { namespace: "team-a", name: "b" })).toBe(
      "/apis/ml.example.com/v1alpha1/namespaces/team-a/gpubudgets/b",
    );
    expect(resourcePath(CustomResourceDefinition, { name: "gpubudgets.ml.example.com" })).toBe(
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gpubudgets.ml.example.com",
    );
  });

  it("lists a namespaced kind across namespaces when no namespace is given", () => {
    expect(resourcePath(ConfigMap)).toBe("/api/v1/configmaps");
  });

  it("appends subresources", () => {
    expect(resourcePath(GPUBudget, { namespace: "n", name: "b", subresource: "status" })).toBe(
      "/apis/ml.example.com/v1alpha1/namespaces/n/gpubudgets/b/status",
    );
    expect(resourcePath(Deployment, { namespace: "n", name: "d", subresource: "scale" })).toBe(
      "/apis/apps/v1/namespaces/n/deployments/d/scale",
    );
  });

  it("rejects a namespace on a cluster-scoped kind and a missing one on a namespaced object", () => {
    expect(() => resourcePath(Namespace, { namespace: "x", name: "y" })).toThrow(/cluster-scoped/);
    expect(() => resourcePath(Pod, { name: "p" })).toThrow(/set metadata.namespace/);
  });

  it("rejects names that would escape the path", () => {
    expect(() => resourcePath(Pod, { namespace: "default", name: "../secrets" })).toThrow(/invalid name/);
    expect(() => resourcePath(Pod, { namespace: "a/b", name: "x" })).toThrow(/invalid namespace/);
    expect(() => resourcePath(Pod, { namespace: "default", name: "" })).toThrow(/invalid name/);
  });

  it("needs a name for a subresource", () => {
    expect(() => resourcePath(Pod, { namespace: "default", subresource: "status" })).toThrow(
      /needs an object name/,
    );
  });
});

describe("queryString", () => {
  it("skips undefined and empty values and encodes the rest", () => {
    expect(queryString({ a: undefined, b: "", labelSelector: "app in (x,y)", limit: 500, watch: true })).toBe(
      "?labelSelector=app+in+%28x%2Cy%29&limit=500&watch=true",
    );
    expect(queryString({})).toBe("");
  });
});
