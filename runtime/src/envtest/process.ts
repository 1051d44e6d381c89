import type { ChildProcess } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { processes } from "../internal/proc.js";
import { sleepUnlessAborted } from "../internal/sleep.js";
import { type Disposable, track, untrack } from "./cleanup.js";
import { spawnTethered } from "./tether.js";

export interface ProcessSpec {
  /** Short name for messages: "etcd", "kube-apiserver". */
  name: string;
  binary: string;
  /** Flags as name → value, emitted sorted by name as `--name=value` (like envtest). */
  flags: Record<string, string>;
  /** Arguments after the flags, as given (a manager's command line). */
  args?: string[];
  /** The whole environment of the process (default: this process's). */
  env?: Record<string, string>;
  cwd?: string;
  /** How much of its output output() keeps (default 16 KiB). */
  outputBytes?: number;
  healthURL: string;
  /** TLS material for an https health URL. */
  tls?: { ca: string; cert?: string; key?: string };
  /** Temp dirs owned by this process, removed when it stops. */
  dirs: string[];
  startTimeoutMs: number;
  stopTimeoutMs: number;
  attachOutput: boolean;
}

const OUTPUT_TAIL_BYTES = 16 * 1024;
const HEALTH_POLL_MS = 100;

/** Thrown when the process exits or never gets healthy; carries the tail of its output. */
export class ProcessStartError extends Error {
  readonly output: string;
  constructor(message: string, output: string) {
    super(message);
    this.name = "ProcessStartError";
    this.output = output;
  }
}

export function flagsToArgs(flags: Record<string, string>): string[] {
  return Object.keys(flags)
    .sort()
    .map((k) => `--${k}=${flags[k]}`);
}

/** One control-plane process in its own process group, tethered to this one, health-polled, stopped by group. */
export class ControlPlaneProcess implements Disposable {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private tail = "";

  constructor(readonly spec: ProcessSpec) {
    // From now on, not only once started: its temp dirs exist already and go at exit either way.
    track(this);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the process printed (only kept when output is not attached). */
  output(): string {
    return this.tail;
  }

  async start(): Promise<void> {
    const { spec } = this;
    // Its own process group, so stop() reaches anything it forks; tethered, so it dies with this process.
    const child = spawnTethered(spec.binary, [...flagsToArgs(spec.flags), ...(spec.args ?? [])], {
      ...(spec.env ? { env: spec.env } : {}),
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
      output: spec.attachOutput ? "inherit" : "pipe",
      dirs: spec.dirs,
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.tail = (this.tail + chunk.toString()).slice(-(spec.outputBytes ?? OUTPUT_TAIL_BYTES));
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exitInfo = { code, signal };
        resolve();
      });
      child.once("error", (err) => {
        this.tail += `\n${err.message}`;
        this.exitInfo = { code: -1, signal: null };
        resolve();
      });
    });

    const deadline = Date.now() + spec.startTimeoutMs;
    while (Date.now() < deadline) {
      if (this.exitInfo) {
        const how = this.exitInfo.signal ? `signal ${this.exitInfo.signal}` : `code ${this.exitInfo.code}`;
        throw new ProcessStartError(`${spec.name} exited with ${how} while starting`, this.tail);
      }
      if (await healthy(spec.healthURL, spec.tls)) return;
      await Promise.race([sleepUnlessAborted(HEALTH_POLL_MS), this.exited]);
    }
    throw new ProcessStartError(
      `${spec.name} did not become healthy at ${spec.healthURL} within ${spec.startTimeoutMs}ms`,
      this.tail,
    );
  }

  private stopping: Promise<void> | undefined;

  /**
   * Resolves with a description when the process ends without stop() having been called (a crash);
   * never resolves otherwise.
   */
  unexpectedExit(): Promise<string> {
    return new Promise((resolve) => {
      void this.exited.then(() => {
        if (this.stopping || !this.exitInfo) return;
        const { code, signal } = this.exitInfo;
        resolve(
          `${this.spec.name} exited with ${signal ? `signal ${signal}` : `code ${code}`}: ${this.tail.trim().split("\n").at(-1) ?? ""}`,
        );
      });
    });
  }

  /** Resolves once the process has exited, however it ended. */
  ended(): Promise<void> {
    return this.exited;
  }

  /**
   * SIGTERM the group, SIGKILL it after stopTimeoutMs or as soon as `forceWhen` resolves (something its
   * graceful shutdown waits for is gone), then remove the temp dirs. Idempotent.
   */
  stop(forceWhen?: Promise<unknown>): Promise<void> {
    this.stopping ??= this.doStop(forceWhen);
    return this.stopping;
  }

  private async doStop(forceWhen: Promise<unknown> | undefined): Promise<void> {
    const pid = this.child?.pid;
    if (pid !== undefined && !this.exitInfo) {
      killGroup(pid, "SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        this.exited.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), this.spec.stopTimeoutMs);
        }),
        ...(forceWhen ? [forceWhen.then(() => true)] : []),
      ]);
      clearTimeout(timer); // a pending stop timer would keep the caller's process alive
      if (timedOut) {
        killGroup(pid, "SIGKILL");
        await this.exited;
      }
    }
    // Anything the leader forked is still in its group, and so is its watchdog (tether.ts): make sure
    // the whole group is gone before stop() resolves, so a caller that exits next leaves nothing behind
    // (on a loaded machine the watchdog outlived `kbts envtest start` by a moment).
    if (pid !== undefined) {
      killGroup(pid, "SIGKILL");
      const deadline = Date.now() + GROUP_GONE_MS;
      while (groupAlive(pid) && Date.now() < deadline) await sleepUnlessAborted(GROUP_POLL_MS);
    }
    this.child?.stdin?.destroy();
    untrack(this);
    await Promise.all(this.spec.dirs.map((d) => rm(d, { recursive: true, force: true })));
  }

  disposeNow(): void {
    const pid = this.child?.pid;
    if (pid !== undefined) {
      killGroup(pid, "SIGKILL");
      // A SIGKILL lands when the kernel next runs the process: one in uninterruptible sleep (etcd in an
      // fsync on a loaded disk) outlives it for a moment. Wait for the group, bounded, so a process
      // that exits through here (`kbts envtest start` stopped while starting) leaves none behind.
      const deadline = Date.now() + GROUP_GONE_MS;
      while (groupAlive(pid) && Date.now() < deadline) Atomics.wait(PAUSE, 0, 0, GROUP_POLL_MS);
    }
    for (const d of this.spec.dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** How long a stop waits for a SIGKILLed group to be gone, and how often it looks. */
const GROUP_GONE_MS = 5_000;
const GROUP_POLL_MS = 10;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Whether a process of group pgid is alive (neither a zombie nor dead), read from /proc: a synchronous
 * check the exit hook can make. False where there is no /proc (macOS): there the wait is skipped.
 */
function groupAlive(pgid: number): boolean {
  if (!existsSync("/proc")) return false;
  return processes().some((p) => p.pgrp === pgid && p.state !== "Z" && p.state !== "X");
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: already gone
  }
}

/** GET url answers 200 within a second. */
function healthy(url: string, tls: ProcessSpec["tls"]): Promise<boolean> {
  return new Promise((resolve) => {
    const isHttps = url.startsWith("https:");
    const options = isHttps
      ? { ca: tls?.ca, cert: tls?.cert, key: tls?.key, timeout: 1000 }
      : { timeout: 1000 };
    const req = (isHttps ? httpsRequest : httpRequest)(url, options, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
    req.end();
  });
}
