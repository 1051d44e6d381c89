import { InvalidArgumentError } from "commander";

// The scaffolding commands' (`init`, `create`) flag values, as Kubebuilder reads them: `--flag=false`
// booleans and `--plugins a,b` lists; and how they report what they wrote.

export function collectList(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(",").map((v) => v.trim())].filter((v) => v !== "");
}

/** `--resource`, `--resource=true`, `--resource=false`. */
export function parseBool(value: string | undefined): boolean {
  if (value === undefined || value === "true") return true;
  if (value === "false") return false;
  throw new InvalidArgumentError(`expected true or false, got ${JSON.stringify(value)}`);
}

/** Commander passes `true` for a bare optional-value flag. */
export function flagBool(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  return value === true || value === "true";
}

export function printResult(result: { written: string[]; kept?: string[]; next: string }): void {
  for (const path of result.written) process.stdout.write(`  wrote ${path}\n`);
  for (const path of result.kept ?? []) {
    process.stdout.write(
      `  kept ${path} (it existed; kbts did not overwrite it: compare it with what kbts writes)\n`,
    );
  }
  process.stdout.write(`${result.next}\n`);
}
