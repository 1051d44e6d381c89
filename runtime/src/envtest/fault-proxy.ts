/**
 * A TCP proxy between a client and the API server that injects network faults, for tests of what a
 * reflector and client survive: latency, connection resets, black-holed traffic, and frozen
 * connections (open, never closed, no bytes either way, as a dead load balancer leaves them). TLS
 * passes through untouched, so the API server's certificate (valid for 127.0.0.1) still verifies.
 * Test support: not exported from the envtest entry point.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import type { KubeConfig as AnyKubeConfig } from "../client/kubeconfig.js";

export interface FaultProxy {
  /** "https://127.0.0.1:<port>" */
  url: string;
  /** A kubeconfig of `kubeConfig`'s current context whose cluster points at the proxy. */
  kubeConfigFor(kubeConfig: AnyKubeConfig): KubeConfig;
  /** Connections currently open through the proxy. */
  readonly open: number;
  /** Connections accepted since the proxy started. */
  readonly accepted: number;
  /** Adds this much delay to every chunk in both directions (0 to stop). */
  setLatency(ms: number): void;
  /** Resets (RST) every open connection now. */
  resetAll(): void;
  /** Resets every open connection every `ms` until `stopResets()`. */
  resetEvery(ms: number): void;
  stopResets(): void;
  /** Every open connection stops forwarding in both directions, forever; new ones are not affected. */
  freezeOpen(): void;
  /** New connections are accepted but nothing is forwarded (until `blackhole(false)`); they stay frozen. */
  blackhole(on: boolean): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  frozen: boolean;
}

/** Listens on 127.0.0.1 (a free port) and forwards to `target` ("https://127.0.0.1:6443" or host:port). */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const url = new URL(target.includes("://") ? target : `tcp://${target}`);
  const upstreamHost = url.hostname;
  const upstreamPort = Number(url.port);
  const pairs = new Set<Pair>();
  let accepted = 0;
  let latencyMs = 0;
  let blackholed = false;
  let resetTimer: NodeJS.Timeout | undefined;

  const pipe = (pair: Pair, from: Socket, to: Socket) => {
    from.on("data", (chunk: Buffer) => {
      if (pair.frozen) return; // swallowed: a frozen path neither delivers nor closes
      if (latencyMs > 0) {
        // Every chunk waits the same time, so timers keep their order; throughput is not limited.
        setTimeout(() => {
          if (!pair.frozen && !to.destroyed) to.write(chunk);
        }, latencyMs);
      } else if (!to.destroyed) {
        to.write(chunk);
      }
    });
    from.on("end", () => {
      if (!pair.frozen) to.end();
    });
  };

  const server: Server = createServer((client) => {
    accepted++;
    const upstream = tcpConnect({ host: upstreamHost, port: upstreamPort });
    const pair: Pair = { client, upstream, frozen: blackholed };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      if (pair.frozen) return; // a frozen connection is never closed towards the other side
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop);
    upstream.on("error", drop);
    client.on("close", drop);
    upstream.on("close", drop);
    pipe(pair, client, upstream);
    pipe(pair, upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0 }, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const proxyURL = `${url.protocol === "tcp:" ? "https:" : url.protocol}//127.0.0.1:${port}`;

  const resetAll = () => {
    for (const pair of [...pairs]) {
      pairs.delete(pair);
      pair.client.resetAndDestroy();
      pair.upstream.destroy();
    }
  };

  return {
    url: proxyURL,
    kubeConfigFor(kubeConfig: AnyKubeConfig): KubeConfig {
      const cluster = kubeConfig.getCurrentCluster();
      const user = kubeConfig.getCurrentUser();
      const context = kubeConfig.getContextObject(kubeConfig.getCurrentContext());
      if (!cluster || !user || !context) {
        throw new Error("the kubeconfig has no current context, cluster and user to point at the proxy");
      }
      const kc = new KubeConfig();
      kc.loadFromOptions({
        clusters: [{ ...cluster, server: proxyURL }],
        users: [user],
        contexts: [context],
        currentContext: context.name,
      });
      return kc;
    },
    get open() {
      return pairs.size;
    },
    get accepted() {
      return accepted;
    },
    setLatency(ms: number) {
      latencyMs = ms;
    },
    resetAll,
    resetEvery(ms: number) {
      if (resetTimer) clearInterval(resetTimer);
      resetTimer = setInterval(resetAll, ms);
    },
    stopResets() {
      if (resetTimer) clearInterval(resetTimer);
      resetTimer = undefined;
    },
    freezeOpen() {
      for (const pair of pairs) pair.frozen = true;
    },
    blackhole(on: boolean) {
      blackholed = on;
    },
    async close() {
      if (resetTimer) clearInterval(resetTimer);
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
