/** A problem the user can fix (bad input, missing binaries, busy port): one line, plus how to fix it. */
export class EnvtestError extends Error {
  readonly fix: string | undefined;

  constructor(message: string, options: { fix?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "EnvtestError";
    this.fix = options.fix;
  }
}
