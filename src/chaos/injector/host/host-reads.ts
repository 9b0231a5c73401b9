// What the injector reads from the host (kept apart from writes so that dry-run still reads everything).

export interface HostReads {
  readFile(path: string): Promise<string>;
  exists(path: string): Promise<boolean>;
  /** Runs a command that only reads (tc qdisc show, ip link show); also in dry-run. */
  run(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}
