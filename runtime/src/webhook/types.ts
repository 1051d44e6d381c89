import type { IncomingMessage, ServerResponse } from "node:http";
import type { Runnable } from "../runnable.js";

/** A raw handler mounted on the webhook server; admission handlers are built on top of it. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** The HTTPS server admission webhooks are served from (port 9443 by default). */
export interface WebhookServer extends Runnable {
  register(path: string, handler: HttpHandler): void;
  /** Resolves when the server is listening and its certificate is loaded (readyz check). */
  started(): Promise<void>;
  /**
   * Start draining before a stop (the manager's shutdownDelayMs): keep serving every request, new
   * connections too, but close each connection after its response, so clients move to another replica.
   */
  drain?(): void;
}
