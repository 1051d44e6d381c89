/**
 * The sharding integration tests' harness: replicas as child processes (replica.ts), their write
 * log of reconcile windows, overlap checks, and their kbts_shard_* (or other) series.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { eventually } from "../../internal/testdata/eventually.js";

export interface Replica {
  name: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  killedAt?: number;
}

export interface Window {
  replica: string;
  key: string;
  start: number;
  end: number;
}

export class Replicas {
  readonly all = new Map<string, Replica>();

  /** `script` (in testdata) runs each replica, given the kubeconfig path, its name, `mechanism` and `args`. */
  constructor(
    private readonly kubeconfigPath: string,
    private readonly mechanism: "label" | "shardSelector",
    private readonly script = "replica.ts",
    private readonly args: string[] = [],
  ) {}

  spawn(name: string): Replica {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(import.meta.dirname, this.script),
        this.kubeconfigPath,
        name,
        this.mechanism,
        ...this.args,
      ],
      { cwd: join(import.meta.dirname, "..", "..", "..", ".."), stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
    });
    child.stderr?.on("data", (d) => {
      out += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const replica = { name, child, output: () => out, exited };
    this.all.set(name, replica);
    return replica;
  }

  async kill(name: string): Promise<number> {
    const replica = this.all.get(name) as Replica;
    replica.killedAt = Date.now();
    replica.child.kill("SIGKILL");
    await replica.exited;
    return replica.killedAt;
  }

  async stopAll(): Promise<void> {
    for (const r of this.all.values()) r.child.kill("SIGKILL");
    await Promise.all([...this.all.values()].map((r) => r.exited));
  }

  /** Every replica's reconciles as windows; one cut short by SIGKILL ends when the replica died. */
  writeLog(): Window[] {
    const windows: Window[] = [];
    for (const r of this.all.values()) {
      const open = new Map<string, number>();
      for (const line of r.output().split("\n")) {
        if (!line.startsWith('{"ev"')) continue;
        const e = JSON.parse(line) as { ev: string; key: string; t: number };
        if (e.ev === "start") open.set(e.key, e.t);
        if (e.ev === "end") {
          windows.push({ replica: r.name, key: e.key, start: open.get(e.key) ?? e.t, end: e.t });
          open.delete(e.key);
        }
      }
      for (const [key, start] of open) {
        windows.push({ replica: r.name, key, start, end: r.killedAt ?? Date.now() });
      }
    }
    return windows;
  }

  /** Waits until `replica` has reconciled each of `keys` since `since`; returns each one's first start. */
  reconciledSince(replica: string, keys: string[], since: number): Promise<Map<string, number>> {
    return eventually(
      `${replica} to reconcile ${keys.join(", ")}`,
      () => {
        const first = new Map<string, number>();
        for (const w of this.writeLog()) {
          if (w.replica !== replica || w.start < since) continue;
          if (!first.has(w.key) || (first.get(w.key) as number) > w.start) first.set(w.key, w.start);
        }
        return keys.every((k) => first.has(k)) ? first : undefined;
      },
      20_000,
      100,
    );
  }

  /** The port a replica said it listens on for `server` (a JSON line {"ev": server, "port": ...}). */
  port(replica: string, server: string): number {
    const line = this.all
      .get(replica)
      ?.output()
      .split("\n")
      .find((l) => l.startsWith(`{"ev":"${server}"`));
    if (!line) throw new Error(`${replica} has not said its ${server} port yet`);
    return (JSON.parse(line) as { port: number }).port;
  }

  /** A replica's series named `prefix`..., by their name and labels as printed. */
  async shardMetrics(replica: string, prefix = "kbts_shard_"): Promise<Map<string, number>> {
    const port = this.port(replica, "metrics");
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const out = new Map<string, number>();
    for (const l of text.split("\n")) {
      if (!l.startsWith(prefix)) continue;
      const at = l.lastIndexOf(" ");
      out.set(l.slice(0, at), Number(l.slice(at + 1)));
    }
    return out;
  }
}

/** Pairs of windows of one object, from two replicas, that overlap in time. */
export function overlaps(windows: Window[]): string[] {
  const out: string[] = [];
  const byKey = new Map<string, Window[]>();
  for (const w of windows) byKey.set(w.key, [...(byKey.get(w.key) ?? []), w]);
  for (const [key, ws] of byKey) {
    for (const a of ws) {
      for (const b of ws) {
        if (a.replica < b.replica && a.start < b.end && b.start < a.end) {
          out.push(`${key}: ${a.replica} [${a.start}, ${a.end}] and ${b.replica} [${b.start}, ${b.end}]`);
        }
      }
    }
  }
  return out;
}
