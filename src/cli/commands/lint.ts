import type { Command } from "commander";

export function defineLint(program: Command): void {
  program
    .command("lint")
    .description("type-aware checks biome cannot do: promises that are neither awaited nor handled")
    .action(async () => {
      const { runLint } = await import("../../lint/floating.js");
      runLint();
    });
}
