/** Phase lines with elapsed time on stderr; stdout stays free for the path/env answer. */
export class Progress {
  private readonly started = Date.now();

  constructor(
    private readonly out: { write(s: string): unknown } = process.stderr,
    private readonly prefix = "setup-envtest",
  ) {}

  elapsed(): string {
    return formatDuration(Date.now() - this.started);
  }

  line(message: string): void {
    this.out.write(`${this.prefix} [${this.elapsed()}] ${message}\n`);
  }

  /** Runs work, printing `still <what>` every intervalMs so a long build never looks hung. */
  async during<T>(what: string, work: Promise<T>, intervalMs = 30_000): Promise<T> {
    const phaseStart = Date.now();
    this.line(what);
    const timer = setInterval(
      () => this.line(`still ${what} (${formatDuration(Date.now() - phaseStart)} so far)`),
      intervalMs,
    );
    try {
      return await work;
    } finally {
      clearInterval(timer);
    }
  }
}

export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}
