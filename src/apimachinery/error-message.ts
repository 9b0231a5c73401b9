// The words of anything thrown, for status, Events and logs: one helper for every layer (the template engine,
// which imports nothing of Bosun's, has its own).
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
