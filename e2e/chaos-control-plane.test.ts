// The chaos e2e (e2e/chaos/e2e.ts) for kube-apiserver kills and pauses, etcd compaction and paused operators.
import { describeChaos } from "./chaos/e2e.js";

describeChaos("control plane");
