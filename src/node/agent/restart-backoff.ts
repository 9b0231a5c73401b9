// kubelet's CrashLoopBackOff: the delay before restarting a container doubles with each restart, from
// 10 s up to 5 min (options so tests need not wait that long).
export interface RestartBackoffOptions {
  initialMs?: number;
  maxMs?: number;
}

export function restartDelayMs(restartCount: number, options: RestartBackoffOptions = {}): number {
  const initial = options.initialMs ?? 10_000;
  const max = options.maxMs ?? 300_000;
  return Math.min(max, initial * 2 ** Math.max(0, restartCount));
}
