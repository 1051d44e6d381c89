#!/usr/bin/env node
// Thin launcher: the CLI lives in the compiled src/ (run `npm run build` first).
import { main } from "../dist/cli/main.js";

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`kbts: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
