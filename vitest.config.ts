import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests run on the TypeScript sources of @kbts/runtime, so no build is needed between edits.
const alias = [
  { find: /^@kbts\/runtime\/envtest$/, replacement: here("./runtime/src/envtest/index.ts") },
  { find: /^@kbts\/runtime\/validation$/, replacement: here("./runtime/src/validation/index.ts") },
  { find: /^@kbts\/runtime\/fake$/, replacement: here("./runtime/src/fake/index.ts") },
  { find: /^@kbts\/runtime$/, replacement: here("./runtime/src/index.ts") },
];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "src/**/*.test.ts",
            "runtime/src/**/*.test.ts",
            "testdata/**/*.test.ts",
            "bench/**/*.test.ts",
          ],
          exclude: [
            "**/*.int.test.ts",
            "**/node_modules/**",
            "testdata/project-*/**",
            "testdata/tutorial-*/**",
          ],
        },
      },
      {
        // Against a real etcd + kube-apiserver: each file starts its own control plane.
        resolve: { alias },
        test: {
          name: "integration",
          include: ["src/**/*.int.test.ts", "runtime/src/**/*.int.test.ts", "testdata/**/*.int.test.ts"],
          exclude: ["**/node_modules/**", "testdata/project-*/**", "testdata/tutorial-*/**"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
        },
      },
      {
        // Drives the built CLI (bin/kbts.js) and scaffolded projects.
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          // e2e/fresh-clone.test.ts runs every other test, once, in a fresh clone: only `make test` runs it
          // (KBTS_FRESH_CLONE_RUN=1, which the clone does not inherit). Elsewhere it is not collected at
          // all, so no run counts it as skipped, and a skip in a summary is always a real test's.
          exclude: [
            "**/node_modules/**",
            ...(process.env.KBTS_FRESH_CLONE_RUN === "1" ? [] : ["e2e/fresh-clone.test.ts"]),
          ],
          testTimeout: 900_000,
          hookTimeout: 900_000,
          maxWorkers: 1,
        },
      },
    ],
  },
});
