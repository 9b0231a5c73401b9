// memory-pressure (upstream injector/memory_pressure.go): one `memory-stress` child per target, which joins the
// target's cgroups and fills its memory to --target-percent of the limit, at once or over --ramp-duration. The
// parent reads the limit first so that a target without one fails the injection (not only the child).
import type { Injector, InjectorContext, KindDefinition } from '../injector.ts';
import { cgroupDirs, memoryCgroup, parseMemoryLimit } from '../cgroups.ts';
import { parseGoDuration } from '../durations.ts';
import { CgroupError, InjectorFlagError } from '../errors.ts';
import { StressSlot } from '../stress/stress-slot.ts';
import { deadlineOf } from './option-values.ts';

/** "76%" or "76" → 76. */
export function parseTargetPercent(text: string): number {
  const match = /^(\d+)%?$/.exec(text.trim());
  const value = Number(match?.[1]);
  if (!match || !(value > 0 && value <= 100)) throw new InjectorFlagError(`--target-percent: ${JSON.stringify(text)} is not a percentage between 1 and 100`);
  return value;
}

class MemoryPressureInjector implements Injector {
  readonly kind = 'memory-pressure' as const;
  private readonly stress: StressSlot;

  constructor(
    private readonly ctx: InjectorContext,
    private readonly targetPercent: number,
    private readonly rampMs: number,
    deadline: Date | undefined,
  ) {
    this.stress = new StressSlot(ctx, 'memory-stress', deadline);
  }

  async inject(): Promise<void> {
    if (this.stress.running) return;
    const { container } = this.ctx.target;
    if (!container) throw new CgroupError('memory-pressure needs a target container (pod level): the node has no memory limit to fill');
    const memory = memoryCgroup(container);
    const limit = parseMemoryLimit(await this.ctx.reads.readFile(memory.limitFile), memory.limitFile);
    this.ctx.log.info('starting memory stress', { container: container.id, limit, targetPercent: this.targetPercent, rampMs: this.rampMs });
    const joins = cgroupDirs(container);
    const args = ['--target-percent', String(this.targetPercent), '--ramp-duration', `${this.rampMs}ms`, '--join', joins.join(','), '--limit-file', memory.limitFile, '--usage-file', memory.usageFile];
    await this.stress.start(args);
  }

  clean(): Promise<void> {
    return this.stress.stop();
  }
}

export const memoryPressureKind: KindDefinition = {
  name: 'memory-pressure',
  options: [
    { flags: '--target-percent <percent>', description: "target share of the memory limit, e.g. '76%'" },
    { flags: '--ramp-duration <duration>', description: 'reach the target gradually over this long (0: at once)', defaultValue: '0' },
  ],
  create: (ctx, values) => new MemoryPressureInjector(ctx, parseTargetPercent(String(values['targetPercent'] ?? '')), parseGoDuration('ramp-duration', String(values['rampDuration'] ?? '0')), deadlineOf(values)),
};
