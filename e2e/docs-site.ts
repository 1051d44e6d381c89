/**
 * The kbts book for the docs e2e: built by `make docs` (docs/gen/main.ts, then vitepress build) into
 * a directory of the test's own, and served from it on 127.0.0.1 by a small static server
 * (what a static host does: a path is its file, `dir/` its index.html, anything else 404.html with 404).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { REPO } from "./support/paths.js";

/** Debian's chromium (`make chromium`); playwright-core drives it and downloads no browser. */
export const CHROMIUM = "/usr/bin/chromium";

/** Builds the site with `make docs`, into `outDir` (DOCS_OUT); returns the build's seconds. */
export function buildSite(outDir: string): number {
  const started = performance.now();
  execFileSync("make", ["--no-print-directory", "docs", `DOCS_OUT=${outDir}`], {
    cwd: REPO,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return (performance.now() - started) / 1000;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".txt": "text/plain",
};

/** Serves `root` on a free port of 127.0.0.1; resolves to its base URL (no trailing slash). */
export async function serveSite(root: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    let file = join(root, path);
    if (!file.startsWith(root)) file = join(root, "404.html");
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    const found = existsSync(file) && statSync(file).isFile();
    const body = readFileSync(found ? file : join(root, "404.html"));
    res.writeHead(found ? 200 : 404, {
      "content-type": TYPES[extname(found ? file : ".html")] ?? "application/octet-stream",
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}
