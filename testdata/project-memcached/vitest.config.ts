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

import { defineConfig } from "vitest/config";

// test/e2e deploys to whatever cluster the current kubeconfig points at: it runs only when asked
// for by path (`make test-e2e`, `npx vitest run test/e2e`), never with a plain `npx vitest run`.
const e2eAsked = process.argv.some((arg) => arg.includes("test/e2e"));

// Tests that need a cluster start their own local control plane (etcd + kube-apiserver) through
// @kbts/runtime/envtest, so files run one at a time to keep the machine responsive.
export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**", ...(e2eAsked ? [] : ["test/e2e/**"])],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
