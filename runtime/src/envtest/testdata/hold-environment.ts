// Starts an environment, prints its pids and temp dirs as one JSON line, then either waits (to be
// interrupted) or, with "exit", exits with code 1 without calling stop(), like a crashing test run.
import { startEnvironment } from "../index.js";

const env = await startEnvironment({ crdDirectoryPaths: [new URL("./crds", import.meta.url).pathname] });
process.stdout.write(`${JSON.stringify({ pids: env.pids, tempDirs: env.tempDirs })}\n`);
if (process.argv[2] === "exit") process.exit(1);
setInterval(() => {}, 60_000);
