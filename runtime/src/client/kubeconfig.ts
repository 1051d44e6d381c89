/**
 * A kubeconfig without @kubernetes/client-node's generated API. Importing client-node's KubeConfig
 * loads its whole generated API (about 800 modules: ~1 s of CPU and ~65 MiB resident in an operator that
 * only needs a server address and credentials), because its config module also builds API clients.
 * Here the file is parsed into client-node's own Cluster/User/Context shapes (its config_types module),
 * and credentials are applied as its KubeConfig.applyToHTTPSOptions applies them: CA, client
 * certificates, tokens and token files, basic auth, impersonation and exec plugins (its ExecAuth, loaded
 * on first use). Anything rarer (an auth-provider such as oidc, azure or gcp, or a proxy-url) is handed
 * to client-node's KubeConfig, loaded only then. The YAML parser and client-node's config_types are
 * loaded only to read a file (fromFile): a pod's service account (fromClusterAndUser) needs neither.
 * The parser is client-node's own, js-yaml's load: a kubeconfig reads as client-node reads it, and an
 * operator's start pays about a third of what the `yaml` package takes for the same file (its
 * base64 certificates are long plain scalars: 4-5 ms against 10-14 ms, cold, on node 24).
 */
import { readFileSync } from "node:fs";
import type { RequestOptions } from "node:https";
import { dirname, isAbsolute, join } from "node:path";
import type { KubeConfig as ClientNodeKubeConfig } from "@kubernetes/client-node";
import type { Cluster, Context, User } from "@kubernetes/client-node/dist/config_types.js";
import type { ExecAuth } from "@kubernetes/client-node/dist/exec_auth.js";
import type { FileAuth } from "@kubernetes/client-node/dist/file_auth.js";

export type { Cluster, Context, User };

/**
 * What the runtime needs of a kubeconfig: the current context's cluster and user, and the credentials
 * for a request. loadKubeConfig() returns one; @kubernetes/client-node's KubeConfig is one too.
 */
export interface KubeConfig {
  getCurrentContext(): string;
  getContexts(): Context[];
  getContextObject(name: string): Context | null;
  getCurrentCluster(): Cluster | null;
  getCurrentUser(): User | null;
  /** Sets CA, client certificate, servername and headers (Authorization) for one request. */
  applyToHTTPSOptions(opts: RequestOptions): Promise<void>;
}

/** The kubeconfig loadKubeConfig() loads: files or a pod's service account, read without client-node's API. */
export class LoadedKubeConfig implements KubeConfig {
  clusters: Cluster[] = [];
  users: User[] = [];
  contexts: Context[] = [];
  currentContext = "";
  private fileAuth?: FileAuth;
  private execAuth?: Promise<ExecAuth>;
  private clientNode?: Promise<ClientNodeKubeConfig>;
  /** base64 certificate data decoded once: applyToHTTPSOptions runs for every request. */
  private readonly decoded = new Map<string, Buffer>();

  /** Parses a kubeconfig file; relative certificate paths are taken from the file's directory, as kubectl does. */
  static fromFile(path: string): LoadedKubeConfig {
    const kc = new LoadedKubeConfig();
    try {
      const { parseYaml, newClusters, newContexts, newUsers } = fileParser();
      const doc = (parseYaml(readFileSync(path, "utf8")) ?? {}) as Record<string, unknown>;
      kc.clusters = newClusters(doc.clusters);
      kc.users = newUsers(doc.users);
      kc.contexts = newContexts(doc.contexts);
      kc.currentContext = typeof doc["current-context"] === "string" ? doc["current-context"] : "";
    } catch (err) {
      throw new Error(`kubeconfig ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const root = dirname(path);
    const absolute = (file: string | undefined) => (file && !isAbsolute(file) ? join(root, file) : file);
    for (const cluster of kc.clusters) cluster.caFile = absolute(cluster.caFile);
    for (const user of kc.users) {
      user.certFile = absolute(user.certFile);
      user.keyFile = absolute(user.keyFile);
    }
    return kc;
  }

  /** One cluster, one user, one context named `loaded-context` (client-node's loadFromClusterAndUser). */
  static fromClusterAndUser(cluster: Cluster, user: User): LoadedKubeConfig {
    const kc = new LoadedKubeConfig();
    kc.clusters = [cluster];
    kc.users = [user];
    kc.currentContext = "loaded-context";
    kc.contexts = [{ name: kc.currentContext, cluster: cluster.name, user: user.name }];
    return kc;
  }

  /**
   * Adds another file's clusters, users and contexts (a name already present is an error, as in
   * client-node); the current context stays this one's unless it has none, as kubectl merges KUBECONFIG.
   */
  merge(other: LoadedKubeConfig): void {
    for (const [mine, theirs, what] of [
      [this.clusters, other.clusters, "cluster"],
      [this.users, other.users, "user"],
      [this.contexts, other.contexts, "context"],
    ] as const) {
      for (const entry of theirs) {
        if ((mine as { name: string }[]).some((m) => m.name === entry.name)) {
          throw new Error(`kubeconfig: duplicate ${what} "${entry.name}" in KUBECONFIG's files`);
        }
        (mine as unknown[]).push(entry);
      }
    }
    this.currentContext ||= other.currentContext;
  }

  getCurrentContext(): string {
    return this.currentContext;
  }

  setCurrentContext(name: string): void {
    this.currentContext = name;
  }

  getContexts(): Context[] {
    return this.contexts;
  }

  getContextObject(name: string): Context | null {
    return this.contexts.find((c) => c.name === name) ?? null;
  }

  getCurrentCluster(): Cluster | null {
    const context = this.getContextObject(this.currentContext);
    return (context && this.clusters.find((c) => c.name === context.cluster)) ?? null;
  }

  getCurrentUser(): User | null {
    const context = this.getContextObject(this.currentContext);
    return (context && this.users.find((u) => u.name === context.user)) ?? null;
  }

  async applyToHTTPSOptions(opts: RequestOptions): Promise<void> {
    const cluster = this.getCurrentCluster();
    const user = this.getCurrentUser();
    if (cluster?.proxyUrl || isOtherAuthProvider(user)) {
      await (await this.fullKubeConfig()).applyToHTTPSOptions(opts);
      return;
    }
    if (!user) return;
    // Files are read per request, as client-node does: certificates and tokens on disk may be rotated.
    if (cluster?.skipTLSVerify) opts.rejectUnauthorized = false;
    if (cluster?.tlsServerName) opts.servername = cluster.tlsServerName;
    const ca = this.fileOrBase64(cluster?.caFile, cluster?.caData);
    if (ca) opts.ca = ca;
    const cert = this.fileOrBase64(user.certFile, user.certData);
    if (cert) opts.cert = cert;
    const key = this.fileOrBase64(user.keyFile, user.keyData);
    if (key) opts.key = key;
    // Headers as an object (the REST layer passes one); client-node assumes the same.
    opts.headers ??= {};
    const headers = opts.headers as Record<string, string>;
    if (user.impersonateUser) headers["Impersonate-User"] = user.impersonateUser;
    if (isExecUser(user)) {
      this.execAuth ??= import("@kubernetes/client-node/dist/exec_auth.js").then((m) => new m.ExecAuth());
      await (await this.execAuth).applyAuthentication(user, opts);
    } else if (user.authProvider?.config?.tokenFile) {
      // The in-cluster service-account token, re-read every minute as the kubelet rotates it.
      this.fileAuth ??= new (await import("@kubernetes/client-node/dist/file_auth.js")).FileAuth();
      await this.fileAuth.applyAuthentication(user, opts);
    }
    if (user.token) headers.Authorization = `Bearer ${user.token}`;
    if (user.username) opts.auth = `${user.username}:${user.password}`;
  }

  private fileOrBase64(file: string | undefined, data: string | undefined): Buffer | undefined {
    if (file) return readFileSync(file);
    if (!data) return undefined;
    let decoded = this.decoded.get(data);
    if (!decoded) {
      decoded = Buffer.from(data, "base64");
      this.decoded.set(data, decoded);
    }
    return decoded;
  }

  /** client-node's KubeConfig over the same entries, for what only it implements. */
  private fullKubeConfig(): Promise<ClientNodeKubeConfig> {
    this.clientNode ??= import("@kubernetes/client-node").then(({ KubeConfig }) => {
      const kc = new KubeConfig();
      kc.loadFromOptions({
        clusters: this.clusters,
        users: this.users,
        contexts: this.contexts,
        currentContext: this.currentContext,
      });
      return kc;
    });
    return this.clientNode;
  }
}

type ConfigTypes = typeof import("@kubernetes/client-node/dist/config_types.js");

/**
 * The YAML parser and client-node's entry validation, loaded on the first file read. fromFile is
 * synchronous, so this is a require(), not an import(): in a bundle, the bundler's `require` (esbuild
 * bundles a literal name and runs it only when called); under tsc's output, node's, by createRequire
 * (node:module taken as getBuiltinModule, so that it too is loaded only here).
 */
function fileParser(): { parseYaml: (text: string) => unknown } & ConfigTypes {
  if (typeof require === "function") {
    return { parseYaml: require("js-yaml").load, ...require("@kubernetes/client-node/dist/config_types.js") };
  }
  const load = process.getBuiltinModule("node:module").createRequire(import.meta.url);
  return { parseYaml: load("js-yaml").load, ...load("@kubernetes/client-node/dist/config_types.js") };
}

/** client-node's ExecAuth.isAuthProvider. */
function isExecUser(user: User): boolean {
  return Boolean(user.exec) || user.authProvider?.name === "exec" || Boolean(user.authProvider?.config?.exec);
}

/**
 * An auth-provider other than exec and a token file (oidc, azure, gcp, or one client-node does not
 * know): client-node's own code runs it. azure and gcp come first, as in client-node's authenticators.
 */
function isOtherAuthProvider(user: User | null): boolean {
  const provider = user?.authProvider;
  if (!provider) return false;
  if (provider.name === "azure" || provider.name === "gcp") return true;
  return !isExecUser(user as User) && !provider.config?.tokenFile;
}
