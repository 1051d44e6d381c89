/**
 * A user-facing error: what went wrong, where (file:line:col, a flag, a path) and how to fix it.
 * Library code throws these; the CLI prints them once, at the edge, without a stack trace.
 */
export class KbtsError extends Error {
  readonly where: string | undefined;
  readonly fix: string | undefined;

  constructor(message: string, options: { where?: string; fix?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "KbtsError";
    this.where = options.where;
    this.fix = options.fix;
  }

  /** One line (two with a fix) as the CLI prints it. */
  format(): string {
    const head = this.where ? `${this.where}: ${this.message}` : this.message;
    return this.fix ? `${head}\n  fix: ${this.fix}` : head;
  }
}
