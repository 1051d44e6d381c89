import type { Command } from "commander";

export function defineLint(cmd: Command): void {
  cmd
    .option(
      "--tests",
      "first check every *.test.ts for tests that cannot fail: no assertion, assertions only in a catch or handler, an unread reject: false result, a swallowed error",
    )
    .action(async (options: { tests?: boolean }) => {
      if (options.tests) {
        const { runTestLint } = await import("../../lint/tests.js");
        runTestLint();
      }
      const { runLint } = await import("../../lint/floating.js");
      runLint();
    });
}
