/**
 * `make bench-go-operator`: builds the Go GPUBudget operator (bench/gpubudget/go) into the user cache
 * when it is missing, with progress; exits 1 with one line saying why when it cannot.
 */
import { installGoToolOrExit } from "../../e2e/tools/go-tool.js";
import { goOperatorTool } from "./go-operator.js";

await installGoToolOrExit(goOperatorTool());
