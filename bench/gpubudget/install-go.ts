/**
 * `make bench-go-operator`: builds the Go GPUBudget operator (bench/gpubudget/go) into the user cache
 * when it is missing, with progress; exits 1 with one line saying why when it cannot.
 */
import { withProgress } from "../../e2e/demo/lib.js";
import { goOperatorBin, installGoOperator } from "./go-operator.js";

try {
  await withProgress(
    `Go GPUBudget operator (${goOperatorBin()})`,
    installGoOperator().then((result) => {
      if (!result.ok) throw new Error(result.reason);
    }),
    5000,
  );
} catch (err) {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
