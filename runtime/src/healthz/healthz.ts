import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A named health check; throw or reject to report unhealthy (controller-runtime's healthz.Checker).
 * A string returned is a note on a healthy check, shown by ?verbose and GET <endpoint>/<name> (a
 * controller waiting for its kind to be served is healthy, and says so).
 */
export type HealthCheck = () => void | string | Promise<void | string>;

/** Always healthy: the process is up and serving HTTP (controller-runtime's healthz.Ping). */
export const ping: HealthCheck = () => {};

/**
 * Named health checks behind one endpoint (/healthz or /readyz), with controller-runtime's output:
 * GET <endpoint> → 200 "ok", or a verbose list ([+]name ok / [-]name failed: reason withheld) ending
 * in "healthz check failed"; ?verbose lists checks on success too; ?exclude=name skips one;
 * GET <endpoint>/<name> runs one check. Failures answer 503 Service Unavailable (controller-runtime
 * answers 500; a probe treats both as failure, and 503 says "not ready yet" to a human or a proxy).
 */
export class HealthChecks {
  private readonly checks = new Map<string, HealthCheck>();

  constructor(readonly endpoint: string) {}

  add(name: string, check: HealthCheck): void {
    if (!name || name.includes("/")) {
      throw new Error(`health check name "${name}" must be non-empty and contain no "/"`);
    }
    if (this.checks.has(name)) throw new Error(`a ${this.endpoint} check named "${name}" already exists`);
    this.checks.set(name, check);
  }

  get size(): number {
    return this.checks.size;
  }

  /** Handles the request if its path is this endpoint or below it; returns false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    if (this.checks.size === 0) return false;
    if (path === this.endpoint || path === `${this.endpoint}/`) {
      void this.serveAll(url, res);
      return true;
    }
    if (path.startsWith(`${this.endpoint}/`)) {
      void this.serveOne(decodeURIComponent(path.slice(this.endpoint.length + 1)), res);
      return true;
    }
    return false;
  }

  private async serveAll(url: URL, res: ServerResponse): Promise<void> {
    const excluded = new Set(url.searchParams.getAll("exclude").flatMap((e) => e.split(",")));
    const verbose = url.searchParams.has("verbose");
    const lines: string[] = [];
    let failed = false;
    const names = [...this.checks.keys()].sort();
    const results = await Promise.all(
      names.map(async (name) => (excluded.has(name) ? "excluded" : await runCheck(this.checks.get(name)))),
    );
    for (const [i, name] of names.entries()) {
      const r = results[i] as CheckResult | "excluded";
      if (r === "excluded") {
        lines.push(`[+]${name} excluded: ok`);
        excluded.delete(name);
      } else if (r.ok) {
        lines.push(`[+]${name} ${okText(r.note)}`);
      } else {
        failed = true;
        lines.push(`[-]${name} failed: reason withheld`);
      }
    }
    for (const unknown of excluded)
      lines.push(`warn: some health checks cannot be excluded: no matches for "${unknown}"`);
    if (failed) {
      send(res, 503, `${lines.join("\n")}\nhealthz check failed\n`);
    } else if (verbose) {
      send(res, 200, `${lines.join("\n")}\nhealthz check passed\n`);
    } else {
      send(res, 200, "ok");
    }
  }

  private async serveOne(name: string, res: ServerResponse): Promise<void> {
    const check = this.checks.get(name);
    if (!check) {
      send(res, 404, "404 page not found\n");
      return;
    }
    const r = await runCheck(check);
    if (r.ok) send(res, 200, okText(r.note));
    else send(res, 503, `internal server error: ${r.reason}\n`);
  }
}

type CheckResult = { ok: true; note?: string } | { ok: false; reason: string };

/** "ok", with a healthy check's note when it gave one. */
const okText = (note: string | undefined) => (note ? `ok (${note})` : "ok");

async function runCheck(check: HealthCheck | undefined): Promise<CheckResult> {
  if (!check) return { ok: false, reason: "missing" };
  try {
    const note = await check();
    return note ? { ok: true, note } : { ok: true };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" });
  res.end(body);
}
