// conmon writes a container's exit code to <exit dir>/<id> when it ends. One inotify watch on the directory
// (fs.watch) wakes every waiter: no polling, and a container that ended while no agent ran is seen at once.
import { watch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface ExitRecord {
  exitCode: number;
  finishedAt: Date;
}

export class ExitWatcher {
  private readonly waiters = new Map<string, ((record: ExitRecord) => void)[]>();
  private readonly watcher: FSWatcher;

  constructor(private readonly dir: string) {
    this.watcher = watch(dir, (_event, file) => {
      if (file !== null && this.waiters.has(file)) void this.check(file);
    });
    this.watcher.unref();
  }

  /** Resolves when the container's exit file exists and holds a code (at once if it already does). */
  wait(id: string): Promise<ExitRecord> {
    const done = new Promise<ExitRecord>((resolve) => {
      const list = this.waiters.get(id) ?? [];
      list.push(resolve);
      this.waiters.set(id, list);
      this.watcher.ref(); // someone waits for an exit: keep the process alive for it
    });
    void this.check(id); // registered first, then checked: an exit between the two is not missed
    return done;
  }

  /** The exit, if the container has ended. */
  async read(id: string): Promise<ExitRecord | undefined> {
    const path = join(this.dir, id);
    try {
      const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
      // conmon writes the file in one go, but an event can arrive between its create and its write.
      if (text.trim() === '') return undefined;
      return { exitCode: Number.parseInt(text.trim(), 10), finishedAt: info.mtime };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  private async check(id: string): Promise<void> {
    const record = await this.read(id).catch(() => undefined);
    if (record === undefined) return;
    const list = this.waiters.get(id);
    this.waiters.delete(id);
    if (this.waiters.size === 0) this.watcher.unref();
    for (const resolve of list ?? []) resolve(record);
  }

  close(): void {
    this.watcher.close();
  }
}
