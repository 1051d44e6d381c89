import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { imageEnv } from "./dockerfile.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function envOf(dockerfile: string): Record<string, string> {
  dir = mkdtempSync(join(tmpdir(), "kbts-dockerfile-"));
  writeFileSync(join(dir, "Dockerfile"), dockerfile);
  return imageEnv(dir);
}

it("reads the last stage's ENV as Docker sets it, quotes around a value with spaces dropped", () => {
  const env = envOf(
    [
      "FROM node:24 AS builder",
      "ENV BUILD_ONLY=1",
      "FROM node:24-slim",
      "ENV NODE_ENV=production",
      'ENV NODE_OPTIONS="--max-semi-space-size=4 --enable-source-maps"',
      'ENV QUOTE="say \\"hi\\""',
      "ENV EQUALS=a=b",
      'ENTRYPOINT ["node", "dist/manager/manager.mjs"]',
    ].join("\n"),
  );
  expect(env).toEqual({
    NODE_ENV: "production",
    NODE_OPTIONS: "--max-semi-space-size=4 --enable-source-maps",
    QUOTE: 'say "hi"',
    EQUALS: "a=b",
  });
});
