/**
 * Killing and restarting the environment's kube-apiserver (etcd keeps running), for tests of what
 * survives a control-plane outage: watches that must reconnect, caches that must catch up.
 *
 * Written by the runtime-core helper for the reflector's acceptance test, from outside Environment:
 * it reads the running kube-apiserver's command line from /proc and starts the same command again
 * (same port, certs and etcd). Linux only. Envtest owner: feel free to fold this into Environment
 * (e.g. `env.stopAPIServer()` / `env.startAPIServer()`) and export it from index.ts.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:https";
import { KubeConfig } from "@kubernetes/client-node";
import { type Disposable, track, untrack } from "./cleanup.js";
import type { Environment } from "./environment.js";
import { kubeconfigYAML } from "./environment.js";
import { spawnTethered } from "./tether.js";

/** A kube-apiserver this module started; stop it before env.stop(), which only knows the original. */
export interface APIServerProcess {
  pid: number;
  url: string;
  kubeConfig: KubeConfig;
  stop(): Promise<void>;
}

/** What is needed to start a kube-apiserver again: its argv and how to reach it. */
export interface KilledAPIServer {
  argv: string[];
  /** Starts the same command again and waits until /healthz answers ok. */
  start(): Promise<APIServerProcess>;
}

type Target = Environment | APIServerProcess;

function isProcess(t: Target): t is APIServerProcess {
  return typeof (t as APIServerProcess).pid === "number";
}

function argvOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
}

function apiServerPid(env: Environment): number {
  for (const pid of env.pids) {
    try {
      if (argvOf(pid)[0]?.endsWith("kube-apiserver")) return pid;
    } catch {
      // gone already
    }
  }
  throw new Error("no running kube-apiserver in this environment (was it started with useExistingCluster?)");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(
  what: string,
  timeoutMs: number,
  check: () => boolean | Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGKILLs the kube-apiserver (the original or one started here); resolves once it is gone. */
export async function killAPIServer(target: Target, env?: Environment): Promise<KilledAPIServer> {
  const environment = isProcess(target) ? env : target;
  if (!environment?.config) throw new Error("killAPIServer needs the Environment (with its config)");
  const pid = isProcess(target) ? target.pid : apiServerPid(environment);
  const argv = argvOf(pid);
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    process.kill(pid, "SIGKILL");
  }
  await until(`kube-apiserver ${pid} to exit`, 20_000, () => !alive(pid) || isZombie(pid));
  const config = environment.config;
  return { argv, start: () => startAPIServer(argv, config) };
}

/** Kills the apiserver, runs `whileDown` (if any), starts it again. */
export async function restartAPIServer(
  target: Target,
  options: { env?: Environment; whileDown?: () => Promise<void> } = {},
): Promise<APIServerProcess> {
  const killed = await killAPIServer(target, options.env);
  await options.whileDown?.();
  return killed.start();
}

/**
 * A second kube-apiserver on the same etcd, listening on `port` (as in an HA control plane): writes
 * through it while the first is down are what a reconnecting watch must catch up with.
 */
export async function startSecondAPIServer(env: Environment, port: number): Promise<APIServerProcess> {
  if (!env.config) throw new Error("startSecondAPIServer needs an environment envtest started");
  const argv = argvOf(apiServerPid(env)).map((a) =>
    a.startsWith("--secure-port=") ? `--secure-port=${port}` : a,
  );
  return startAPIServer(argv, env.config);
}

function isZombie(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/**
 * Starts the kube-apiserver command, retrying for up to 15 s while its port is still taken: after a
 * kill, connections a paused client still holds keep the port busy for a few seconds (EADDRINUSE).
 */
async function startAPIServer(
  argv: string[],
  config: NonNullable<Environment["config"]>,
): Promise<APIServerProcess> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return await startAPIServerOnce(argv, config);
    } catch (err) {
      if (!(err instanceof PortInUseError) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

class PortInUseError extends Error {
  override name = "PortInUseError";
}

async function startAPIServerOnce(
  argv: string[],
  config: NonNullable<Environment["config"]>,
): Promise<APIServerProcess> {
  const port = argv.find((a) => a.startsWith("--secure-port="))?.split("=")[1];
  if (!port) throw new Error("kube-apiserver command line has no --secure-port");
  const url = `https://127.0.0.1:${port}`;
  // Tethered as the original (tether.ts): it must not outlive the test process either.
  const child: ChildProcess = spawnTethered(argv[0]!, argv.slice(1), { output: "pipe", dirs: [] });
  child.stdout?.resume();
  let tail = "";
  child.stderr?.on("data", (c: Buffer) => {
    tail = (tail + c.toString()).slice(-4000);
  });
  let exited = false;
  // "close", not "exit": stderr is read to its end, so the EADDRINUSE message is not missed.
  child.once("close", () => {
    exited = true;
  });
  const pid = child.pid!;
  const disposable: Disposable = {
    disposeNow: () => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // gone
      }
    },
  };
  track(disposable);
  try {
    await until(`kube-apiserver at ${url} to become healthy`, 60_000, async () => {
      if (exited) {
        const message = `kube-apiserver exited while starting: ${tail.slice(-800)}`;
        throw /address already in use/.test(tail) ? new PortInUseError(message) : new Error(message);
      }
      return healthy(url, config);
    });
  } catch (err) {
    disposable.disposeNow();
    untrack(disposable);
    throw err;
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(kubeconfigYAML({ ...config, host: url }));
  return {
    pid,
    url,
    kubeConfig,
    stop: async () => {
      if (!exited) {
        try {
          process.kill(-pid, "SIGTERM");
        } catch {
          // gone
        }
        await until("kube-apiserver to stop", 20_000, () => exited).catch(() => {});
      }
      disposable.disposeNow(); // the rest of its group, its watchdog included
      untrack(disposable);
      child.stdin?.destroy();
    },
  };
}

function healthy(url: string, config: NonNullable<Environment["config"]>): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/healthz`,
      { ca: config.caData, cert: config.certData, key: config.keyData, timeout: 2000 },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    req.on("error", () => resolve(false));
    req.on("timeout", () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}
