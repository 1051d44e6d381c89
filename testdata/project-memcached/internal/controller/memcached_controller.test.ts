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

import {
  type Condition,
  Deployment,
  ignoreAlreadyExists,
  ignoreNotFound,
  isNotFound,
  Namespace,
  setWorkflowConditions,
  Workflow,
} from "@kbts/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Memcached } from "../../api/v1alpha1/memcached_types.js";
import { MemcachedKind } from "../../api/v1alpha1/zz_generated.kinds.js";
import { memcachedDeployment } from "./memcached_controller.js";
import { useTestEnvironment } from "./suite_test.js";

// The controller's workflow, run here without a manager: nothing else runs on this control plane
// (no Deployment controller), so the Deployment is applied but never becomes ready.
describe("Memcached controller", () => {
  const env = useTestEnvironment();
  const memcachedName = "test-memcached";
  const key = { name: memcachedName, namespace: memcachedName };
  const previousImage = process.env.MEMCACHED_IMAGE;
  const workflow = () =>
    new Workflow([memcachedDeployment], {
      primaryKind: MemcachedKind,
      client: env.client(),
      fieldManager: "memcached",
    });
  const conditionsOf = async (): Promise<Condition[]> => {
    const memcached = await env.client().get(MemcachedKind, key);
    const conditions: Condition[] = [];
    setWorkflowConditions(conditions, await workflow().reconcile(memcached), memcached.metadata?.generation);
    return conditions;
  };

  beforeEach(async () => {
    const client = env.client();
    // Creating the Namespace to perform the tests (the first test's is still there for the next)
    await client.create(Namespace, { metadata: { name: key.namespace } }).catch(ignoreAlreadyExists);
    // Setting the Image ENV VAR which stores the Operand image
    process.env.MEMCACHED_IMAGE = "example.com/image:test";
    // Creating the custom resource for the Kind Memcached, as config/samples would
    const resource: Memcached = {
      apiVersion: "example.com.testproject.org/v1alpha1",
      kind: "Memcached",
      metadata: { ...key },
      spec: { size: 1, containerPort: 11211 },
    };
    await client.create(MemcachedKind, resource);
  });

  afterEach(async () => {
    const client = env.client();
    await client.delete(MemcachedKind, key).catch(ignoreNotFound);
    // Without the controller manager nothing garbage-collects the Deployment: delete it too.
    await client.delete(Deployment, key).catch(ignoreNotFound);
    if (previousImage === undefined) delete process.env.MEMCACHED_IMAGE;
    else process.env.MEMCACHED_IMAGE = previousImage;
  });

  it("applies the Deployment of a Memcached, and writes nothing when it already matches", async () => {
    const client = env.client();
    const memcached = await client.get(MemcachedKind, key);
    const first = await workflow().reconcile(memcached);
    expect(first.writes).toBe(1);

    // Checking if Deployment was successfully created in the reconciliation
    const deployment = await client.get(Deployment, key);
    expect(deployment.spec?.replicas).toBe(1);
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe("example.com/image:test");
    expect(deployment.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: "Memcached",
      name: memcachedName,
      controller: true,
    });

    // Reconciling the custom resource again: the Deployment already is as desired
    const again = await workflow().reconcile(memcached);
    expect(again.writes).toBe(0);
    expect(again.dependents[0]?.state).toBe("notReady");
  });

  it("reports Progressing while the Deployment is not available", async () => {
    const conditions = await conditionsOf();
    expect(conditions.find((c) => c.type === "Ready")).toMatchObject({
      status: "False",
      reason: "DeploymentNotReady",
    });
    expect(conditions.find((c) => c.type === "Progressing")).toMatchObject({ status: "True" });
    expect(conditions.find((c) => c.type === "Degraded")).toMatchObject({ status: "False" });
  });

  it("follows spec.size", async () => {
    const client = env.client();
    await workflow().reconcile(await client.get(MemcachedKind, key));
    const memcached = await client.get(MemcachedKind, key);
    memcached.spec.size = 3;
    const resized = await client.update(MemcachedKind, memcached);
    expect((await workflow().reconcile(resized)).writes).toBe(1);
    expect((await client.get(Deployment, key)).spec?.replicas).toBe(3);
  });

  it("reports Degraded, and creates no Deployment, without the MEMCACHED_IMAGE variable", async () => {
    delete process.env.MEMCACHED_IMAGE;
    const conditions = await conditionsOf();
    expect(conditions.find((c) => c.type === "Degraded")).toMatchObject({
      status: "True",
      reason: "DeploymentFailed",
    });
    const missing = await env
      .client()
      .get(Deployment, key)
      .then(() => false, isNotFound);
    expect(missing).toBe(true);
  });
});
