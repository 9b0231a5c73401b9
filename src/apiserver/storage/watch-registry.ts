// The watch streams open right now, so that a shutdown can end each one cleanly instead of cutting it off.
import type { ServerResponse } from 'node:http';

export class WatchRegistry {
  private readonly open = new Set<ServerResponse>();

  add(res: ServerResponse): void {
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every stream cleanly (a terminating chunk), as a real server does on shutdown. */
  closeAll(): void {
    for (const res of this.open) res.end();
    this.open.clear();
  }
}
