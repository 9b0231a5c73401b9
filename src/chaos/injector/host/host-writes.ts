// The boundary where the injector changes the host: cgroup and proc files, signals, child processes, tc and ip
// commands, API writes through the node runtime. Dry-run is implemented here and only here: the dry-run
// implementation logs each write and skips it, so everything before it (reads, resolution, planning) still runs.

export interface ChildProcessHandle {
  readonly pid: number;
  /** Resolves with the exit code (or null and the signal) when the child ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when the child writes its first line to fd 3 (a stress child: "at work"); never, if it does not. */
  readonly reported: Promise<void>;
  kill(signal: NodeJS.Signals): void;
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HostWrites {
  /** Writes a file that exists (cgroup and proc files): no create, no truncate semantics beyond the kernel's. */
  writeFile(path: string, content: string): Promise<void>;
  /** Sends a signal to a host process. */
  kill(pid: number, signal: NodeJS.Signals): Promise<void>;
  /** Starts a child process (a stress child); in dry-run a handle whose process never existed, exiting on kill. */
  spawn(argv: readonly string[], options?: { env?: Record<string, string> }): Promise<ChildProcessHandle>;
  /** Runs a command that changes the host (tc, ip, nsenter …) and returns its result; in dry-run code 0, empty output. */
  run(argv: readonly string[]): Promise<CommandResult>;
  /** A write through the node runtime API (finalizer removal, pod replacement, node failure). */
  runtimeCall(description: string, call: () => Promise<void>): Promise<void>;
}
