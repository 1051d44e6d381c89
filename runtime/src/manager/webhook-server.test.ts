import { describe, expect, it } from "vitest";
import { conversionRegistryOf, registeredConversions } from "../webhook/conversion.js";
import type { HttpsWebhookServer } from "../webhook/server.js";
import type { HttpHandler } from "../webhook/types.js";
import { DeferredWebhookServer } from "./webhook-server.js";

/** A server that records what it is given, started when start() is called. */
function recordingServer() {
  const registered: string[] = [];
  const calls: string[] = [];
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const server: HttpsWebhookServer = {
    needLeaderElection: false,
    register: (path: string, _handler: HttpHandler) => void registered.push(path),
    started: () => started,
    address: () => ({ host: "127.0.0.1", port: 9443 }),
    paths: () => [...registered],
    drain: () => void calls.push("drain"),
    async start(signal) {
      calls.push("start");
      markStarted();
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    },
  };
  return { server, registered, calls };
}

describe("the manager's deferred webhook server", () => {
  it("checks paths when they are registered, before the server is loaded", () => {
    let loads = 0;
    const deferred = new DeferredWebhookServer(async () => {
      loads++;
      return recordingServer().server;
    });
    deferred.register("/validate", () => {});
    expect(() => deferred.register("validate", () => {})).toThrow(/webhook path "validate" is invalid/);
    expect(() => deferred.register("/validate", () => {})).toThrow(/\/validate is already registered/);
    expect(deferred.paths()).toEqual(["/validate"]);
    expect(deferred.address()).toBeUndefined();
    expect(loads).toBe(0);
  });

  it("loads the server when started, hands it the paths and conversions, and is started with it", async () => {
    const real = recordingServer();
    const deferred = new DeferredWebhookServer(async () => real.server);
    deferred.register("/mutate", () => {});
    const registry = conversionRegistryOf(deferred);
    deferred.drain();
    const stop = new AbortController();
    const running = deferred.start(stop.signal);
    await deferred.started();
    expect(real.registered).toEqual(["/mutate", "/convert"]);
    expect(real.calls).toEqual(["drain", "start"]);
    expect(registeredConversions(real.server)).toBe(registry);
    expect(deferred.address()).toEqual({ host: "127.0.0.1", port: 9443 });
    deferred.register("/late", () => {});
    expect(real.registered).toEqual(["/mutate", "/convert", "/late"]);
    await expect(deferred.start(stop.signal)).rejects.toThrow(/already started/);
    stop.abort();
    await running;
  });

  it("fails start and started() when the server cannot be made", async () => {
    const deferred = new DeferredWebhookServer(async () => {
      throw new Error("no certificate");
    });
    await expect(deferred.start(new AbortController().signal)).rejects.toThrow("no certificate");
    await expect(deferred.started()).rejects.toThrow("no certificate");
  });
});
