import type { Command } from "commander";

// Placeholder: `kbts generate` (typed Kind descriptors for the project's API types) is declared by the manifests work.
export function defineGenerate(_program: Command): void {}
