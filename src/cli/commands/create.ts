import type { Command } from "commander";

// Placeholder: the command is declared by the issue that builds it.
export function defineCreate(_program: Command): void {}
