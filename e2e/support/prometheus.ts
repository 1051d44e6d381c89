/**
 * A real Prometheus (Debian's package, installed by `make tools` / `make prometheus`; tests never
 * install it) on a free local port, with a config file the test writes, its data in `dir`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./free-port.js";

export interface PrometheusProcess {
  port: number;
  /**
   * GET an HTTP API path: its data, and its warnings (with Prometheus 2.50+'s infos, e.g. rate() of
   * a series that is not a counter). An error answer (a query Prometheus refuses) throws.
   */
  api<T>(path: string): Promise<{ data: T; warnings: string[] }>;
  stop(): Promise<void>;
}

/** Starts it; it answers once it has read its config (callers poll). */
export async function spawnPrometheus(dir: string, config: string): Promise<PrometheusProcess> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "prometheus.yml"), config);
  const port = await freePort();
  const child: ChildProcess = spawn(
    "prometheus",
    [
      `--config.file=${join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: "ignore" },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let spawnError: Error | undefined;
  child.once("error", (err) => {
    spawnError = err; // e.g. ENOENT: `make tools` installs Debian's prometheus package
  });
  return {
    port,
    async api<T>(path: string) {
      if (spawnError) throw new Error(`prometheus could not start (make prometheus): ${spawnError.message}`);
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      const body = (await res.json()) as {
        status: string;
        data: T;
        warnings?: string[];
        infos?: string[];
        errorType?: string;
        error?: string;
      };
      if (body.status !== "success") throw new Error(`${path}: ${body.errorType}: ${body.error}`);
      return { data: body.data, warnings: [...(body.warnings ?? []), ...(body.infos ?? [])] };
    },
    async stop() {
      if (spawnError || child.exitCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}
