// The one stress child of a pressure injector (cpu, memory): started and confirmed in the target's cgroups, or
// stopped again when that fails; stopped at clean. A child that ends on its own is logged, not restarted.
import type { ChildProcessHandle } from '../host/host-writes.ts';
import type { InjectorContext } from '../injector.ts';
import { awaitStressChild, startStressChild, stopStressChild } from './child.ts';

export class StressSlot {
  private child: ChildProcessHandle | undefined;

  constructor(
    private readonly ctx: InjectorContext,
    private readonly subcommand: 'cpu-stress' | 'memory-stress',
    private readonly deadline: Date | undefined,
  ) {}

  get running(): boolean {
    return this.child !== undefined;
  }

  async start(args: readonly string[]): Promise<void> {
    const child = await startStressChild(this.ctx.writes, this.subcommand, args, this.deadline);
    this.child = child;
    try {
      await awaitStressChild(child, this.ctx.signal);
    } catch (error) {
      this.child = undefined;
      await stopStressChild(child);
      throw error;
    }
    void child.exited.then(({ code, signal }) => {
      if (this.child === child) this.ctx.log.warn(`${this.subcommand} child exited on its own`, { pid: child.pid, code, signal });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    await stopStressChild(child);
    this.ctx.log.info(`${this.subcommand} stopped`, { pid: child.pid });
  }
}
