// kubelet's messages print delays as Go prints a time.Duration.

/** 300 → "300ms", 10 000 → "10s", 300 000 → "5m0s". */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m${seconds % 60}s` : `${seconds}s`;
}
