// The watch streams open right now, so that a shutdown can end each one cleanly instead of cutting it off.
import type { ServerResponse } from 'node:http';

export class WatchRegistry {
  /** Each open stream's own end function, which stops its writers before it ends the response. */
  private readonly open = new Set<() => void>();

  add(res: ServerResponse, end: () => void): void {
    this.open.add(end);
    res.on('close', () => this.open.delete(end));
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every stream cleanly (a terminating chunk), as a real server does on shutdown. */
  closeAll(): void {
    for (const end of this.open) end();
    this.open.clear();
  }
}
