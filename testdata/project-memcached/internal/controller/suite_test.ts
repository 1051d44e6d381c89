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

import { fileURLToPath } from "node:url";
import { type Client, createClient } from "@kbts/runtime";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll } from "vitest";

// +kubebuilder:scaffold:imports

/**
 * Starts a local control plane (etcd + kube-apiserver, found through KUBEBUILDER_ASSETS; `make test`
 * sets it) with the project's CRDs installed, before the tests of the calling file, and stops it after.
 */
export function useTestEnvironment(): { client(): Client; environment(): Environment } {
  let env: Environment | undefined;
  let client: Client | undefined;

  beforeAll(async () => {
    env = await startEnvironment({
      crdDirectoryPaths: [fileURLToPath(new URL("../../config/crd/bases", import.meta.url))],
      errorIfPathMissing: true,
    });
    client = createClient(env.kubeConfig);
  });

  afterAll(async () => {
    await env?.stop();
  });

  return {
    client() {
      if (!client) throw new Error("the test environment is not started: call useTestEnvironment() first");
      return client;
    },
    environment() {
      if (!env) throw new Error("the test environment is not started");
      return env;
    },
  };
}
