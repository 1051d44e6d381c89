/**
 * Each replica in a memory cgroup of its own, as a Deployment's resources.limits.memory puts it in a
 * pod. This matters for what the bench measures: Node sizes V8's heap from the cgroup's limit (259 MiB
 * of heap under 256 MiB, 560 under 1 GiB, 4 GiB on this 24 GiB machine unconfined), and a heap sized
 * for the whole machine lets a start-up's garbage pile up to hundreds of MB before its first full GC,
 * RSS that a replica in a pod never reaches. The Go port is confined alike (without GOMEMLIMIT, as
 * Kubebuilder scaffolds it, it does not read the limit).
 *
 * cgroup v1 (a `memory` hierarchy) or v2 (unified), under this process's own cgroup, which must be
 * writable (root, no container manager owning it).
 */
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface MemoryCgroups {
  /** The command that runs `command` in the replica's cgroup (its pid, and so its RSS, stays the command's). */
  wrap(replica: string, command: string[]): string[];
  /** Removes the cgroups (their processes must have exited). */
  remove(): void;
}

/** Where this process's memory cgroup is, and which file holds a limit there. */
function ownMemoryCgroup(): { dir: string; limitFile: string } {
  const lines = readFileSync("/proc/self/cgroup", "utf8").trim().split("\n");
  const v1 = lines.find((l) => l.split(":")[1]?.split(",").includes("memory"));
  if (v1)
    return {
      dir: join("/sys/fs/cgroup/memory", v1.split(":")[2] ?? "/"),
      limitFile: "memory.limit_in_bytes",
    };
  const v2 = lines.find((l) => l.startsWith("0::"));
  if (v2) return { dir: join("/sys/fs/cgroup", v2.slice(3)), limitFile: "memory.max" };
  throw new Error("no memory cgroup in /proc/self/cgroup");
}

export function memoryCgroups(limitMiB: number): MemoryCgroups {
  const made: string[] = [];
  let parent: string;
  let limitFile: string;
  try {
    const own = ownMemoryCgroup();
    limitFile = own.limitFile;
    parent = join(own.dir, `kbts-bench-scale-${process.pid}`);
    mkdirSync(parent);
    made.push(parent);
  } catch (err) {
    throw new Error(
      `--memory-limit: cannot make a memory cgroup for the replicas (${err instanceof Error ? err.message : String(err)}); run as root on a host whose cgroups are writable, or without --memory-limit`,
    );
  }
  return {
    wrap(replica, command) {
      const dir = join(parent, replica);
      mkdirSync(dir, { recursive: true });
      if (!made.includes(dir)) made.push(dir);
      writeFileSync(join(dir, limitFile), String(limitMiB * 1024 * 1024));
      // The shell joins the cgroup, then becomes the replica (exec keeps the pid the bench watches).
      return ["sh", "-c", 'echo $$ > "$0" && exec "$@"', join(dir, "cgroup.procs"), ...command];
    },
    remove() {
      for (const dir of made.reverse()) {
        try {
          rmdirSync(dir);
        } catch {
          // Still holding a process that has not been reaped: the kernel keeps an empty cgroup cheaply.
        }
      }
    },
  };
}
