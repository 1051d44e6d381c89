import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../log/types.js";

/** A request the webhook refuses before decoding it: the HTTP status and why. */
export class HttpError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Reads the body up to `limit` bytes; past it, drains what the client still sends and fails with 413. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  const tooLarge = () => new HttpError(413, `request entity is too large; limit is ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  let over = declared > limit;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) over = true;
    if (!over) chunks.push(chunk);
    if (size > 4 * limit) break; // stop draining an abusive client; the socket is closed after the reply
  }
  if (over) throw tooLarge();
  return Buffer.concat(chunks);
}

/**
 * After a refused body (413), the rest the client still sends is not read: over HTTP/1.1 the connection
 * goes with the reply. HTTP/2 has no Connection header (node drops it with a warning); there the
 * stream alone is reset and the session stays usable.
 */
export function closeConnectionAfterReply(req: IncomingMessage, res: ServerResponse): void {
  if (req.httpVersionMajor === 1) res.setHeader("connection", "close");
}

/** Writes body as JSON with the given status. */
export function send(res: ServerResponse, httpCode: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(httpCode, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** The JSON body of a review: empty, not application/json or not JSON is a 400. */
export function decodeJSON(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) throw new HttpError(400, "request body is empty");
  const mediaType = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new HttpError(400, `contentType=${contentType ?? ""}, expected application/json`);
  }
  try {
    return JSON.parse(body.toString("utf8"));
  } catch (err) {
    throw new HttpError(400, `unable to decode the request: ${(err as Error).message}`);
  }
}

/**
 * Reads a review from a POST: the parsed review, or, for a request refused before decoding (wrong
 * method, empty, too large, not JSON, not the review expected), the HTTP status it was answered with
 * (`refusal` gives the body, a review carrying the error, so the caller sees why).
 */
export async function receiveReview<R>(
  req: IncomingMessage,
  res: ServerResponse,
  options: {
    maxRequestBytes: number;
    parse: (body: Buffer, contentType: string | undefined) => R;
    refusal: (err: HttpError) => unknown;
    log: Logger;
    what: string;
  },
): Promise<R | number> {
  try {
    if (req.method !== "POST") throw new HttpError(405, `method ${req.method} not allowed; use POST`);
    return options.parse(await readBody(req, options.maxRequestBytes), req.headers["content-type"]);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    options.log.error({ err: err.message, code: err.code }, `bad ${options.what} request`);
    if (err.code === 413) closeConnectionAfterReply(req, res);
    send(res, err.code, options.refusal(err));
    return err.code;
  }
}
