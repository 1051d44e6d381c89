import { createServer } from "node:net";

// Ports this process already handed out: the kernel may give the same free port twice in a row.
const handedOut = new Set<number>();

/** A free TCP port on host, found by listening on port 0 (as envtest's addr.Suggest). */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.once("error", reject);
      server.listen(0, host, () => {
        const address = server.address();
        const p = typeof address === "object" && address ? address.port : 0;
        server.close(() => resolve(p));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port found on ${host}`);
}

/** Whether something is already listening on host:port. */
export async function portInUse(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(true));
    server.listen(port, host, () => server.close(() => resolve(false)));
  });
}
