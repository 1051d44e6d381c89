import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";

/**
 * Plain-HTTP /metrics in the Prometheus text format. Unlike controller-runtime's --metrics-secure
 * there is no TLS and no TokenReview/SubjectAccessReview filter yet: keep it on a trusted network.
 */
export function createMetricsServer(registry: Registry): Server {
  return createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("404 page not found\n");
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { "Content-Type": registry.contentType });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (err: unknown) => {
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end(`error gathering metrics: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  });
}
