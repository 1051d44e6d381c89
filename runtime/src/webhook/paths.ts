/** What a webhook path may be, checked where it is registered (the server, or the manager's before it loads it). */
const PATH_PATTERN = /^((\/[a-zA-Z0-9-_]+)+|\/)$/;

/** Throws unless `path` is a valid path not yet among `registered`. */
export function checkWebhookPath(path: string, registered: { has(path: string): boolean }): void {
  if (!PATH_PATTERN.test(path)) {
    throw new Error(`webhook path ${JSON.stringify(path)} is invalid: it must match ${PATH_PATTERN.source}`);
  }
  if (registered.has(path)) throw new Error(`webhook path ${path} is already registered`);
}
