import { type FSWatcher, watch } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createSecureContext } from "node:tls";
import type { Logger } from "../log/types.js";
import { certReadErrorsTotal, certReadsTotal } from "../metrics/certwatcher.js";

export interface CertPair {
  cert: Buffer;
  key: Buffer;
  /** certDir/caName, when the watcher was given a caName and the file is there. */
  ca?: Buffer;
}

export interface CertWatcherOptions {
  certDir: string;
  certName: string;
  keyName: string;
  /**
   * Also follow certDir/caName, the CA that issued the certificate, where the Secret carries one
   * (cert-manager, the cert rotator): replicas that verify each other by it (sharding/forward.ts). It
   * may be absent; it is read with the pair, so a pair and its CA always go together.
   */
  caName?: string;
  /** Called with each new valid pair (not for the first read). */
  onChange: (pair: CertPair) => void;
  logger: Logger;
  /** Re-read even without file events (controller-runtime polls every 10 s). */
  pollIntervalMs?: number;
  /** Coalesces the bursts of events a cert rotation makes (write cert, write key, swap symlink). */
  debounceMs?: number;
  /** Names the server in error messages ("webhook server", "metrics server"). */
  owner?: string;
}

/**
 * Watches a serving certificate and key (controller-runtime's certwatcher): directory events plus a
 * poll, debounced; a pair that does not parse or does not match is logged and the old one kept.
 */
export class CertWatcher {
  private current: CertPair | undefined;
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private readonly options: Required<Omit<CertWatcherOptions, "caName">> & Pick<CertWatcherOptions, "caName">;

  constructor(options: CertWatcherOptions) {
    // ?? rather than a spread: an explicit undefined must not replace a default (setInterval(fn, undefined) fires every 1 ms).
    this.options = {
      ...options,
      pollIntervalMs: options.pollIntervalMs ?? 10_000,
      debounceMs: options.debounceMs ?? 100,
      owner: options.owner ?? "webhook server",
    };
  }

  get certPath(): string {
    return join(this.options.certDir, this.options.certName);
  }

  get keyPath(): string {
    return join(this.options.certDir, this.options.keyName);
  }

  /** The pair in use: the last valid one read (undefined before start). A new object after each change. */
  get pair(): CertPair | undefined {
    return this.current;
  }

  /** Reads and checks the pair; throws a clear error when it is missing or invalid. */
  async read(): Promise<CertPair> {
    certReadsTotal.inc();
    let pair: CertPair;
    try {
      const caName = this.options.caName;
      const [cert, key, ca] = await Promise.all([
        readFile(this.certPath),
        readFile(this.keyPath),
        caName === undefined
          ? undefined
          : readFile(join(this.options.certDir, caName)).catch(absentAsUndefined),
      ]);
      pair = ca === undefined ? { cert, key } : { cert, key, ca };
      createSecureContext({ cert, key }); // throws on unparsable PEM or a key that does not match the cert
    } catch (err) {
      certReadErrorsTotal.inc();
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(
        `${this.options.owner}: cannot load serving certificate ${this.certPath} with key ${this.keyPath}: ${reason}; ` +
          `put a PEM certificate and its key there (certDir/certName/keyName options)`,
      );
    }
    return pair;
  }

  async start(): Promise<CertPair> {
    this.current = await this.read();
    try {
      this.watcher = watch(this.options.certDir, () => this.schedule());
      this.watcher.on("error", (err) =>
        this.options.logger.warn({ err }, "certificate directory watch failed"),
      );
    } catch (err) {
      this.options.logger.warn({ err }, "cannot watch the certificate directory; relying on polling");
    }
    this.poll = setInterval(() => this.schedule(), this.options.pollIntervalMs);
    this.poll.unref();
    return this.current;
  }

  stop(): void {
    this.watcher?.close();
    if (this.poll) clearInterval(this.poll);
    if (this.debounce) clearTimeout(this.debounce);
  }

  private schedule(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.reload(), this.options.debounceMs);
    this.debounce.unref();
  }

  private async reload(): Promise<void> {
    let next: CertPair;
    try {
      next = await this.read();
    } catch (err) {
      this.options.logger.error({ err }, "keeping the previous serving certificate");
      return;
    }
    if (this.current && samePair(next, this.current)) return;
    this.current = next;
    this.options.logger.info({ cert: this.certPath }, "serving certificate reloaded");
    this.options.onChange(next);
  }
}

function samePair(a: CertPair, b: CertPair): boolean {
  const sameCA = a.ca === undefined || b.ca === undefined ? a.ca === b.ca : a.ca.equals(b.ca);
  return sameCA && a.cert.equals(b.cert) && a.key.equals(b.key);
}

function absentAsUndefined(err: NodeJS.ErrnoException): undefined {
  if (err.code === "ENOENT") return undefined;
  throw err;
}
