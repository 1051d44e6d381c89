import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HealthChecks, ping } from "./healthz.js";

let server: Server | undefined;
afterEach(() => server?.close());

async function serve(checks: HealthChecks): Promise<string> {
  server = createServer((req, res) => {
    if (!checks.handle(req, res)) res.writeHead(404).end("404 page not found\n");
  });
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("HealthChecks", () => {
  it("answers 404 when no check is registered", async () => {
    const url = await serve(new HealthChecks("/readyz"));
    expect((await fetch(`${url}/readyz`)).status).toBe(404);
  });

  it("aggregates named checks sorted by name, verbose on failure", async () => {
    const checks = new HealthChecks("/readyz");
    let ready = false;
    checks.add("ping", ping);
    checks.add("cache-sync", () => {
      if (!ready) throw new Error("not synced");
    });
    const url = await serve(checks);
    let res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toBe(
      "[-]cache-sync failed: reason withheld\n[+]ping ok\nhealthz check failed\n",
    );

    res = await fetch(`${url}/readyz/cache-sync`);
    expect(res.status).toBe(503);
    expect(await res.text()).toBe("internal server error: not synced\n");

    res = await fetch(`${url}/readyz?exclude=cache-sync&exclude=nope`);
    expect(res.status).toBe(200);

    ready = true;
    res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
    res = await fetch(`${url}/readyz/?verbose`);
    expect(await res.text()).toBe("[+]cache-sync ok\n[+]ping ok\nhealthz check passed\n");
    expect((await fetch(`${url}/readyz/ping`)).status).toBe(200);
    expect((await fetch(`${url}/readyz/unknown`)).status).toBe(404);
  });

  it("lists excluded and unknown excludes in verbose output", async () => {
    const checks = new HealthChecks("/healthz");
    checks.add("ping", ping);
    const url = await serve(checks);
    const res = await fetch(`${url}/healthz?verbose&exclude=ping&exclude=ghost`);
    expect(await res.text()).toBe(
      '[+]ping excluded: ok\nwarn: some health checks cannot be excluded: no matches for "ghost"\nhealthz check passed\n',
    );
  });

  it("shows a healthy check's note in verbose output and alone, and stays ok", async () => {
    const checks = new HealthChecks("/readyz");
    checks.add("widget-kinds-served", () => "waiting for Widget.x.io to be served");
    checks.add("ping", ping);
    const url = await serve(checks);
    let res = await fetch(`${url}/readyz`);
    expect([res.status, await res.text()]).toEqual([200, "ok"]);
    res = await fetch(`${url}/readyz?verbose`);
    expect(await res.text()).toBe(
      "[+]ping ok\n[+]widget-kinds-served ok (waiting for Widget.x.io to be served)\nhealthz check passed\n",
    );
    res = await fetch(`${url}/readyz/widget-kinds-served`);
    expect([res.status, await res.text()]).toEqual([200, "ok (waiting for Widget.x.io to be served)"]);
  });

  it("rejects duplicate and malformed names", () => {
    const checks = new HealthChecks("/healthz");
    checks.add("ping", ping);
    expect(() => checks.add("ping", ping)).toThrow(/already exists/);
    expect(() => checks.add("a/b", ping)).toThrow(/no "\/"/);
  });
});
