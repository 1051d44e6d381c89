/**
 * The benches' flags: node's parseArgs, plus `--help` and one line for a flag it does not know or a value
 * it cannot take, where parseArgs alone ends the bench with a stack trace.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** What `--help` prints: each flag, what it takes, and its default. */
export function benchUsage(bench: string, options: Options): string {
  const flags = Object.entries(options).map(([name, option]) => {
    const takes = option.type === "string" ? " <value>" : "";
    const fallback = option.default === undefined ? "" : ` (default ${String(option.default)})`;
    return `  --${name}${takes}${fallback}`;
  });
  return [
    `usage: node --import tsx ${bench}/main.ts [flags]`,
    ...flags,
    `What each measures: ${bench}/main.ts's header.`,
  ].join("\n");
}

/**
 * The flags of `argv` (the process's, by default). `--help` prints the usage and exits 0; a flag the
 * bench does not know, or a value it cannot take, is one line on stderr and exit 2.
 */
export function benchArgs<O extends Options>(
  bench: string,
  options: O,
  argv: string[] = process.argv.slice(2),
): ReturnType<typeof parseArgs<{ options: O; args: string[] }>> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(benchUsage(bench, options));
    process.exit(0);
  }
  try {
    return parseArgs({ options, args: argv });
  } catch (err) {
    const code = (err as { code?: string }).code ?? "";
    if (!code.startsWith("ERR_PARSE_ARGS_")) throw err;
    console.error(`${bench}: ${(err as Error).message} (--help lists the flags)`);
    process.exit(2);
  }
}
