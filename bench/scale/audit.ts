/** The kube-apiserver audit log bench/scale reads: its policy, and a reader that follows the file. */
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { parseStatusWrite, type StatusWrite } from "./figures.js";

/** Only writes of GPUBudget status, at Metadata level (who, when, which object; no bodies). */
export const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
  - level: Metadata
    verbs: ["update", "patch"]
    resources:
      - group: capacity.lab.example.com
        resources: ["gpubudgets/status"]
  - level: None
`;

/** Follows the audit log from where it last read, keeping the status writes (a few MiB at 150,000 pods). */
export class AuditTail {
  readonly writes: StatusWrite[] = [];
  private offset = 0;
  private partial = "";
  // A character split across two reads is decoded whole.
  private readonly decoder = new StringDecoder("utf8");

  constructor(private readonly path: string) {}

  /** Reads what was appended since the last poll. */
  poll(): void {
    if (!existsSync(this.path)) return;
    const fd = openSync(this.path, "r");
    try {
      const buf = Buffer.alloc(1 << 20);
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, this.offset);
        if (n === 0) break;
        this.offset += n;
        const lines = (this.partial + this.decoder.write(buf.subarray(0, n))).split("\n");
        this.partial = lines.pop() ?? "";
        for (const line of lines) {
          const w = parseStatusWrite(line);
          if (w) this.writes.push(w);
        }
      }
    } finally {
      closeSync(fd);
    }
  }
}
