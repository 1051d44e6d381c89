/**
 * A registry with kbts on it, for tests that run kbts releases the way users get them (`npm exec
 * --package kbts@<version>`, `npm view kbts@<version>`): a small HTTP server that serves the
 * packument and tarballs of the kbts versions it is given, and passes every other request to the
 * registry npm is configured with. npm resolves and installs kbts here and its dependencies upstream,
 * through the same code paths as against a registry that publishes kbts; no npm setting but
 * `npm_config_registry` changes. (A `file:` spec or a tarball path would skip the registry
 * resolution that alpha update depends on.)
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename } from "node:path";

export interface LocalRegistry {
  /** http://127.0.0.1:<port>/, for npm_config_registry. */
  url: string;
  close(): Promise<void>;
}

/** npm's registry: what the machine's npm uses, asked once. */
export function upstreamRegistry(): string {
  const url = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
  return url.endsWith("/") ? url : `${url}/`;
}

/** The package.json inside an npm tarball. */
function manifestOf(tarball: string): Record<string, unknown> {
  const text = execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" });
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Serves `tarballs` (all of one package, e.g. two kbts versions, the last one `latest`) and proxies the
 * rest to `upstream`.
 */
export async function startRegistry(
  tarballs: string[],
  upstream = upstreamRegistry(),
): Promise<LocalRegistry> {
  const files = new Map<string, Buffer>();
  const versions: Record<string, Record<string, unknown>> = {};
  let name = "";
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  for (const tarball of tarballs) {
    const manifest = manifestOf(tarball);
    const data = readFileSync(tarball);
    name = String(manifest.name);
    const file = basename(tarball);
    files.set(`/${name}/-/${file}`, data);
    versions[String(manifest.version)] = {
      ...manifest,
      _id: `${name}@${manifest.version}`,
      dist: {
        tarball: `${url}${name}/-/${file}`,
        shasum: createHash("sha1").update(data).digest("hex"),
        integrity: `sha512-${createHash("sha512").update(data).digest("base64")}`,
      },
    };
  }
  // The last tarball given is the latest, as the newest release is.
  const latest = Object.keys(versions).at(-1);
  const packument = JSON.stringify({ _id: name, name, "dist-tags": { latest }, versions });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (path === `/${name}`) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(packument);
      return;
    }
    const file = files.get(path);
    if (file !== undefined) {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": file.length });
      res.end(file);
      return;
    }
    if (req.method !== "GET") {
      res.writeHead(404).end();
      return;
    }
    await passUpstream(req, res, upstream);
  }

  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Answers a GET from `upstream`, with npm's Accept header, so npm gets the abbreviated packument the
 * registry serves it (typescript's full one is 12 MB) and tarball URLs that point upstream.
 */
export async function passUpstream(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: string,
): Promise<void> {
  const accept = req.headers.accept;
  const answer = await fetch(`${upstream}${(req.url ?? "/").slice(1)}`, {
    headers: accept === undefined ? {} : { accept },
  });
  const body = Buffer.from(await answer.arrayBuffer());
  res.writeHead(answer.status, {
    "content-type": answer.headers.get("content-type") ?? "application/octet-stream",
    "content-length": body.length,
  });
  res.end(body);
}
