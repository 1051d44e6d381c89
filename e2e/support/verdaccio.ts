/**
 * A real npm registry on localhost for tests that publish kbts the way a release does (`npm publish`)
 * and install it the way users do (`npm i -g kbts`): verdaccio, a devDependency, started on a free port
 * with its storage in a temp dir. kbts and @kbts/*, once published, are served from that storage only;
 * every other package is proxied to the registry npm is configured with, so nothing reaches anywhere
 * the machine's npm would not. npm finds it through a userconfig of its own (registry and a throwaway
 * token), never the user's ~/.npmrc. (e2e/support/npm-registry.ts is a stub that only serves given
 * tarballs; this one takes publishes.)
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";
import { eventually } from "./eventually.js";
import { freePort } from "./free-port.js";
import { upstreamRegistry } from "./npm-registry.js";

export interface Verdaccio {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** An npmrc naming the registry and a token that may publish to it. */
  userconfig: string;
  /** The environment of an npm command that uses this registry (and only the userconfig above). */
  env: Record<string, string>;
  /** What the server printed, for failure messages. */
  output(): string;
  /** Stops the server and waits for it to exit. */
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** The npm setting `key` as the machine's npm has it ("" when unset). */
function npmConfig(key: string): string {
  const value = execFileSync("npm", ["config", "get", key], { encoding: "utf8" }).trim();
  return value === "undefined" || value === "null" ? "" : value;
}

function config(dir: string, upstream: string): string {
  // JSON is YAML: no quoting to get wrong for paths and URLs.
  return JSON.stringify(
    {
      storage: join(dir, "storage"),
      auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 10 } },
      // A packument fetched once serves the whole test (verdaccio asks again after 2 min by default).
      uplinks: { upstream: { url: upstream, timeout: "60s", max_fails: 5, maxage: "30m" } },
      packages: {
        // Ours: only what the test publishes, never a same-named package from upstream.
        kbts: { access: "$all", publish: "$authenticated" },
        "@kbts/*": { access: "$all", publish: "$authenticated" },
        "**": { access: "$all", publish: "$authenticated", proxy: "upstream" },
      },
      web: { enable: false },
      middlewares: { audit: { enabled: false } },
      log: { type: "stdout", format: "pretty", level: "warn" },
    },
    null,
    2,
  );
}

/** Starts verdaccio with its config, storage and userconfig under `dir`, and signs a user in. */
export async function startVerdaccio(dir: string): Promise<Verdaccio> {
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, "config.yaml");
  writeFileSync(configFile, config(dir, upstreamRegistry()));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  // The machine's npm may trust a CA of its own (cafile) to reach its registry: verdaccio must too.
  const cafile = npmConfig("cafile");
  const bin = join(require.resolve("verdaccio/package.json"), "..", "bin", "verdaccio");
  const server: ResultPromise = execa(
    process.execPath,
    [bin, "--config", configFile, "--listen", `127.0.0.1:${port}`],
    {
      cwd: dir,
      env: cafile === "" ? {} : { NODE_EXTRA_CA_CERTS: cafile },
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
  let exited = false;
  const exit = server.then(() => {
    exited = true;
    throw new Error(`verdaccio exited before it answered:\n${printed}`);
  });
  const close = async (): Promise<void> => {
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
    writeFileSync(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${body.token}\n`);
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
