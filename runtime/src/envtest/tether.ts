/**
 * Children that cannot outlive this process: etcd, kube-apiserver and cluster mode's components must go
 * when the process that started them goes, however it goes (stop(), Ctrl-C, SIGKILL, a crash, a test
 * runner killing its worker), and take their temp dirs with them.
 *
 * How: each child is started through a small POSIX sh launcher whose stdin is a pipe from this process.
 * The launcher forks a watchdog (a second sh, in the child's process group) that blocks reading that
 * pipe, then execs the binary in its own place, so the child's pid is the binary's. Only this process
 * holds the pipe's write end (Node opens it close-on-exec), so the kernel closes it when this process
 * dies, for any reason: the watchdog reads end-of-file, SIGKILLs the binary, removes the child's temp
 * dirs and SIGKILLs its process group (anything the binary forked, and itself). The pipe exists before
 * the child does, so there is no window in which a parent's death goes unnoticed. On a normal stop, the
 * caller SIGKILLs the group after the binary exits, which ends the watchdog too; it ignores SIGTERM/
 * SIGINT/SIGHUP so that it still guards the group while the binary shuts down gracefully.
 *
 * Why not the alternatives: Linux's PR_SET_PDEATHSIG (`setpriv --pdeathsig`) does not exist on macOS,
 * fires when the forking *thread* ends (a Node worker thread, not the process), and cannot remove temp
 * dirs; keeping children in the parent's process group only helps when the whole group is signalled,
 * never when the parent alone is killed (`kill -9 PID`), and it lets a terminal's Ctrl-C reach the
 * children before the parent can stop them in order. The pipe needs nothing but /bin/sh.
 */
import { type ChildProcess, spawn } from "node:child_process";

/**
 * Reads the pipe until end-of-file (this process died), then kills the binary, removes the dirs and
 * kills the group. The binary goes first: one still writing into its dir (etcd's data dir) can make
 * `rm -rf` fail with "Directory not empty", so each dir is removed again until it is gone (a SIGKILL
 * lands within moments; the bound only keeps a dir that cannot be removed from holding the group
 * forever). $PPID is the binary: the launcher that forked this shell exec'd it. That pid cannot have
 * been reused, because it is this group's id and this shell is still in the group.
 */
const WATCHDOG = [
  "trap '' INT TERM HUP",
  "read -r _",
  'kill -s KILL "$PPID" 2>/dev/null',
  "IFS='\n'",
  "set -f",
  "for d in $KBTS_TETHER_DIRS; do",
  '  n=0; while [ -e "$d" ] && [ $n -lt 100 ]; do rm -rf -- "$d" 2>/dev/null; n=$((n + 1)); done',
  "done",
  "kill -s KILL 0",
].join("\n");

/** $1: the watchdog script; $2…: the binary and its arguments. stdin: the pipe from this process. */
const LAUNCHER = [
  "watchdog=$1; shift",
  "exec 3<&0 </dev/null",
  // Named so that ps shows what it is; its command line does not repeat the child's.
  'sh -c "$watchdog" kbts-envtest-watchdog <&3 3<&- >/dev/null 2>&1 &',
  "unset KBTS_TETHER_DIRS",
  'exec "$@" 3<&-',
].join("\n");

export interface TetheredSpawnOptions {
  /** The whole environment of the child (default: this process's). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where its stdout and stderr go; its stdin is /dev/null. */
  output: "pipe" | "inherit" | "ignore";
  /** Temp dirs the watchdog removes if this process dies (stop() removes them otherwise). */
  dirs: string[];
}

/**
 * Spawns binary as the leader of its own process group (so a stop reaches anything it forks), tethered
 * to this process: it and its group are SIGKILLed, and `dirs` removed, as soon as this process dies.
 * The caller ends the group with SIGKILL (`process.kill(-pid, "SIGKILL")`) once done with it, which
 * also ends the watchdog.
 */
export function spawnTethered(binary: string, args: string[], options: TetheredSpawnOptions): ChildProcess {
  const child = spawn("/bin/sh", ["-c", LAUNCHER, "kbts-envtest", WATCHDOG, binary, ...args], {
    env: { ...(options.env ?? process.env), KBTS_TETHER_DIRS: options.dirs.join("\n") },
    ...(options.cwd ? { cwd: options.cwd } : {}),
    detached: true,
    stdio: ["pipe", options.output, options.output],
  });
  // Nothing is ever written: the pipe only has to stay open as long as this process lives. It must not
  // keep the event loop alive by itself (the child's own handle does that until it exits).
  child.stdin?.on("error", () => {});
  return child;
}
