import { Writable } from "node:stream";
import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import type { Client } from "../client/types.js";
import { createLogger } from "../log/logger.js";
import { createManagedWebhookServer } from "./serving.js";

describe("make run against a cluster that is not on this machine", () => {
  it("serves a self-signed certificate, leaves the cluster's webhooks alone and says what to do instead", async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromClusterAndUser(
      { name: "prod", server: "https://10.96.0.1:443", skipTLSVerify: false },
      { name: "me" },
    );
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const untouchable = new Proxy({} as Client, {
      get: (_t, method) => () =>
        Promise.reject(new Error(`the remote cluster was called: ${String(method)}`)),
    });
    const server = createManagedWebhookServer(
      { port: 0, host: "127.0.0.1", localManifests: ["config/webhook/manifests.yaml"] },
      {
        kubeConfig,
        client: () => untouchable,
        namespace: () => undefined,
        logger: createLogger({ destination }),
      },
    );
    expect(server.servingMode).toBe("self-signed");
    const stop = new AbortController();
    const running = server.start(stop.signal);
    await server.started();
    const deadline = Date.now() + 5000;
    while (!lines.join("").includes("NOT installed") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await running;
    const log = lines.join("");
    expect(log).toContain("webhook configurations NOT installed: the API server is not on this machine");
    expect(log).toContain("make deploy");
    expect(log).toContain("ENABLE_WEBHOOKS=false make run");
    expect(log).not.toContain("the remote cluster was called");
  });
});
