import { request } from "node:https";
import type { KubeConfig } from "../client/kubeconfig.js";

export interface RestResponse {
  status: number;
  body: unknown;
}

/**
 * A minimal JSON-over-HTTPS client for the few calls envtest makes (CRDs, webhooks, discovery): it
 * answers the raw status and body and never throws on an HTTP error, since envtest polls and
 * tolerates answers (404 while a CRD is being established) that the runtime's RestClient
 * (client/rest.ts) would turn into errors, retries and metrics.
 */
export class RawClient {
  constructor(private readonly kubeConfig: KubeConfig) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    contentType = "application/json",
  ): Promise<RestResponse> {
    const server = this.kubeConfig.getCurrentCluster()?.server;
    if (!server) throw new Error("kubeconfig has no current cluster");
    const options: import("node:https").RequestOptions = {
      method,
      headers: { accept: "application/json", "content-type": contentType },
      timeout: 10_000,
    };
    await this.kubeConfig.applyToHTTPSOptions(options);
    const url = new URL(path, server);
    return new Promise((resolve, reject) => {
      const req = request(url, options, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON (e.g. a plain-text error): keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on("timeout", () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on("error", reject);
      if (body !== undefined) req.write(JSON.stringify(body));
      req.end();
    });
  }
}

/** The message of a Kubernetes Status body, or the raw text. */
export function statusMessage(res: RestResponse): string {
  const b = res.body as { message?: unknown } | string | undefined;
  if (typeof b === "string") return b.trim() || `HTTP ${res.status}`;
  return typeof b?.message === "string" ? b.message : `HTTP ${res.status}`;
}
