// Coalesces the pictures of `bosun tree --watch`: a burst of status writes (dozens a second while a job runs)
// draws at most once per interval, always ending on the latest picture, and a picture equal to the one on
// screen is not drawn again.

export class Redraw {
  private onScreen: string | undefined;
  private pending: string | undefined;
  private lastDrawAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  /** `draw` puts a picture on screen; `minIntervalMs` is the least time between two draws. */
  constructor(
    private readonly draw: (picture: string) => void,
    private readonly minIntervalMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The latest picture: drawn now, or when the interval since the last draw has passed (unless superseded). */
  offer(picture: string): void {
    this.pending = picture;
    if (!this.timer) this.flushWhenDue();
  }

  /** Draws once the interval has passed. Node's timers count whole milliseconds and may fire a fraction early: the wait is rounded up and checked again. */
  private flushWhenDue(): void {
    const wait = this.lastDrawAt + this.minIntervalMs - this.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushWhenDue();
    }, Math.ceil(wait));
  }

  /** Drops a picture not drawn yet (on exit). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }

  private flush(): void {
    const picture = this.pending;
    this.pending = undefined;
    if (picture === undefined || picture === this.onScreen) return;
    this.onScreen = picture;
    this.lastDrawAt = this.now();
    this.draw(picture);
  }
}
