/**
 * A real npm registry on localhost for tests that publish kbts the way a release does (`npm publish`)
 * and install it the way users do (`npm i -g kbts`): verdaccio, a devDependency, started on a free port
 * with its storage in a temp dir. It holds kbts and @kbts/* once published, and nothing else. npm talks
 * to a small front on another port: our packages and the registry API (`/-/`) go to verdaccio, and
 * every other GET passes to the registry npm is configured with, so nothing reaches anywhere the
 * machine's npm would not. (Verdaccio as the proxy fetched, parsed and stored each dependency's full
 * packument, typescript's 12 MB among them, for 50 CPU-seconds a test; npm itself asks for the
 * abbreviated one.) npm finds the front through a userconfig of its own (registry and a throwaway
 * token), never the user's ~/.npmrc. (e2e/support/npm-registry.ts is a stub that only serves given
 * tarballs; this one takes publishes.)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";
import { eventually } from "./eventually.js";
import { freePort } from "./free-port.js";
import { passUpstream, upstreamRegistry } from "./npm-registry.js";

export interface Verdaccio {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** An npmrc naming the registry and a token that may publish to it. */
  userconfig: string;
  /** The environment of an npm command that uses this registry (and only the userconfig above). */
  env: Record<string, string>;
  /** What the server printed, for failure messages. */
  output(): string;
  /** Stops the front and verdaccio, and waits for verdaccio to exit. */
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

function config(dir: string): string {
  // JSON is YAML: no quoting to get wrong for paths and URLs.
  return JSON.stringify(
    {
      storage: join(dir, "storage"),
      auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 10 } },
      // Ours only: what the test publishes, never a same-named package from upstream (no uplinks).
      packages: {
        kbts: { access: "$all", publish: "$authenticated" },
        "@kbts/*": { access: "$all", publish: "$authenticated" },
      },
      web: { enable: false },
      middlewares: { audit: { enabled: false } },
      log: { type: "stdout", format: "pretty", level: "warn" },
    },
    null,
    2,
  );
}

/** Whether a request is verdaccio's: kbts, @kbts/* (packuments and tarballs), or the registry API. */
function forVerdaccio(req: IncomingMessage): boolean {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  return req.method !== "GET" || path.startsWith("/-/") || /^\/(kbts|@kbts(%2f|\/)[^/]+)(\/|$)/i.test(path);
}

/** Passes a request to verdaccio on `port` as it came (Host included: tarball URLs name the front). */
function passTo(port: number, req: IncomingMessage, res: ServerResponse): void {
  const out = request(
    { host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  out.on("error", (err) => res.writeHead(502, { "content-type": "text/plain" }).end(String(err)));
  req.pipe(out);
}

/** Starts verdaccio with its config, storage and userconfig under `dir`, and signs a user in. */
export async function startVerdaccio(dir: string): Promise<Verdaccio> {
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, "config.yaml");
  writeFileSync(configFile, config(dir));
  const port = await freePort();
  const bin = join(require.resolve("verdaccio/package.json"), "..", "bin", "verdaccio");
  const server: ResultPromise = execa(
    process.execPath,
    [bin, "--config", configFile, "--listen", `127.0.0.1:${port}`],
    {
      cwd: dir,
      all: true,
      reject: false,
      stdin: "ignore",
      buffer: { all: true },
    },
  );
  let printed = "";
  server.all?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const upstream = upstreamRegistry();
  const front = createServer((req, res) => {
    if (forVerdaccio(req)) return passTo(port, req, res);
    passUpstream(req, res, upstream).catch((err: unknown) => {
      res.writeHead(502, { "content-type": "text/plain" }).end(String(err));
    });
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const frontPort = (front.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${frontPort}/`;
  let exited = false;
  const exit = server.then(() => {
    exited = true;
    throw new Error(`verdaccio exited before it answered:\n${printed}`);
  });
  const close = async (): Promise<void> => {
    await new Promise<void>((resolve) => front.close(() => resolve()));
    if (exited) return;
    server.kill("SIGTERM");
    const timer = setTimeout(() => server.kill("SIGKILL"), 10_000);
    await server;
    clearTimeout(timer);
  };
  try {
    await Promise.race([
      exit,
      eventually("verdaccio answers /-/ping", async () => {
        const ping = await fetch(`${url}-/ping`).catch(() => undefined);
        return ping?.ok === true ? true : undefined;
      }),
    ]);
    // A throwaway user: verdaccio's htpasswd plugin adds it on first sign-in and hands out a token.
    const user = "kbts-e2e";
    const signIn = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: user, password: "kbts-e2e-password", type: "user", roles: [] }),
    });
    const body = (await signIn.json()) as { token?: string; error?: string };
    if (!signIn.ok || body.token === undefined) {
      throw new Error(`verdaccio refused user ${user}: ${signIn.status} ${JSON.stringify(body)}`);
    }
    const userconfig = join(dir, "npmrc");
    writeFileSync(userconfig, `registry=${url}\n//127.0.0.1:${frontPort}/:_authToken=${body.token}\n`);
    return {
      url,
      userconfig,
      env: { npm_config_registry: url, npm_config_userconfig: userconfig },
      output: () => printed,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
