import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { trackConnections } from "./server-shutdown.js";

describe("trackConnections", () => {
  it("answers a request in flight at shutdown with Connection: close, so a keep-alive client does not reuse the connection", async () => {
    let arrived: () => void = () => {};
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const server = createServer((_req, res) => {
      arrived();
      setTimeout(() => res.end("ok"), 100);
    });
    const shutdown = trackConnections(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const agent = new Agent({ keepAlive: true });
    const answer = new Promise<string | undefined>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port: (server.address() as AddressInfo).port, method: "POST", agent },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.headers.connection));
        },
      );
      req.on("error", reject);
      req.end("x");
    });
    await arrival;
    const stopped = shutdown.shutdown(5_000);
    expect(await answer).toBe("close");
    await stopped;
    agent.destroy();
  });

  it("while draining, serves new connections and closes each after its response; shutdown then ends at once", async () => {
    const server = createServer((_req, res) => res.end("ok"));
    const tracker = trackConnections(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const agent = new Agent({ keepAlive: true });
    const post = () =>
      new Promise<{ body: string; connection: string | undefined }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, method: "POST", agent }, (res) => {
          let body = "";
          res.on("data", (c: Buffer) => {
            body += c.toString();
          });
          res.on("end", () => resolve({ body, connection: res.headers.connection }));
        });
        req.on("error", reject);
        req.end("x");
      });
    expect(await post()).toEqual({ body: "ok", connection: "keep-alive" });
    tracker.drain();
    // The kept-alive connection and a new one are both answered, and told to close.
    expect(await post()).toEqual({ body: "ok", connection: "close" });
    expect(await post()).toEqual({ body: "ok", connection: "close" });
    expect(server.listening).toBe(true);
    const t0 = Date.now();
    await tracker.shutdown(5_000);
    expect(Date.now() - t0).toBeLessThan(1_000);
    agent.destroy();
  });
});
