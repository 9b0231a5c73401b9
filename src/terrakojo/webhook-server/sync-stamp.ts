// The value of terrakojo.io/sync-requested-at: RFC 3339 with nine fraction digits, as Go's RFC3339Nano writes
// it. Nobody reads the value, but it must differ from the last one: an update that changes nothing is no
// event, so two pokes within one millisecond would be one, and the second push could go unsynced. The
// digits below the millisecond count the stamps made within it.

export class SyncStamp {
  private lastMs = -1;
  private sequence = 0;
  private readonly nowMs: () => number;

  constructor(nowMs: () => number = Date.now) {
    this.nowMs = nowMs;
  }

  next(): string {
    // Never backwards, even when the wall clock steps back.
    const ms = Math.max(this.nowMs(), this.lastMs);
    this.sequence = ms === this.lastMs ? this.sequence + 1 : 0;
    this.lastMs = ms;
    const iso = new Date(ms).toISOString(); // 2026-11-24T22:17:49.123Z
    return `${iso.slice(0, -1)}${String(this.sequence).padStart(6, '0')}Z`;
  }
}
