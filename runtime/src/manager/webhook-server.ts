/**
 * The manager's webhook server, loaded when the manager starts it: the server and its certificate
 * handling (webhook/server.ts, webhookcerts/, tls/) are a dynamic import, so a manager without
 * webhooks never loads them, and in a bundle they are a chunk it never reads. Paths registered
 * before then are checked at once and handed to the server when it is made.
 */
import { shareConversions } from "../webhook/conversion.js";
import { checkWebhookPath } from "../webhook/paths.js";
import type { HttpsWebhookServer, ServedCertificate } from "../webhook/server.js";
import type { HttpHandler } from "../webhook/types.js";

export class DeferredWebhookServer implements HttpsWebhookServer {
  readonly needLeaderElection = false;
  private readonly handlers = new Map<string, HttpHandler>();
  private server: HttpsWebhookServer | undefined;
  private starting = false;
  private draining = false;
  private readonly startedPromise: Promise<void>;
  private settle!: { resolve: () => void; reject: (err: unknown) => void };

  /** `load` makes the server (importing its code) when the manager starts this one. */
  constructor(private readonly load: () => Promise<HttpsWebhookServer>) {
    this.startedPromise = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.startedPromise.catch(() => {}); // observed through started() or start()
  }

  register(path: string, handler: HttpHandler): void {
    checkWebhookPath(path, this.handlers);
    this.handlers.set(path, handler);
    this.server?.register(path, handler);
  }

  started(): Promise<void> {
    return this.startedPromise;
  }

  address(): { host: string; port: number } | undefined {
    return this.server?.address();
  }

  paths(): string[] {
    return [...this.handlers.keys()];
  }

  servingCertificate(): ServedCertificate | undefined {
    return this.server?.servingCertificate?.();
  }

  drain(): void {
    this.draining = true;
    this.server?.drain?.();
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.starting) throw new Error("webhook server already started");
    this.starting = true;
    let server: HttpsWebhookServer;
    try {
      server = await this.load();
    } catch (err) {
      this.settle.reject(err);
      throw err;
    }
    shareConversions(this, server);
    for (const [path, handler] of this.handlers) server.register(path, handler);
    this.server = server;
    if (this.draining) server.drain?.();
    server.started().then(this.settle.resolve, this.settle.reject);
    await server.start(signal);
  }
}
