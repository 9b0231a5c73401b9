// cpu-pressure (upstream injector/cpu_pressure.go): one `cpu-stress` child per target, which joins the target's
// cgroups and burns a share of the target's CPU capacity. --count is a number of CPUs or a percentage
// ("50%"); the capacity is min(cpuset CPUs, quota/period) — see readCpuCapacity for the deviation from upstream.
import type { Injector, InjectorContext, KindDefinition } from '../injector.ts';
import { cgroupDirs, readCpuCapacity } from '../cgroups.ts';
import { InjectorFlagError } from '../errors.ts';
import { StressSlot } from '../stress/stress-slot.ts';
import { deadlineOf } from './option-values.ts';

export type CpuCount = { percent: number } | { cpus: number };

export function parseCpuCount(text: string): CpuCount {
  const match = /^(\d+)(%?)$/.exec(text.trim());
  if (!match) throw new InjectorFlagError(`--count: ${JSON.stringify(text)} is neither a number of CPUs nor a percentage such as 50%`);
  const value = Number(match[1]);
  if (match[2] === '%') return { percent: Math.min(100, value) };
  if (value < 1) throw new InjectorFlagError('--count: a number of CPUs must be at least 1');
  return { cpus: value };
}

/** The percentage of the capacity to burn: a number of CPUs becomes its share of the capacity, capped at 100. */
export function percentageOfCapacity(count: CpuCount, capacity: number): number {
  if ('percent' in count) return count.percent;
  return Math.min(100, (count.cpus / capacity) * 100);
}

class CpuPressureInjector implements Injector {
  readonly kind = 'cpu-pressure' as const;
  private readonly stress: StressSlot;

  constructor(
    private readonly ctx: InjectorContext,
    private readonly count: CpuCount,
    deadline: Date | undefined,
  ) {
    this.stress = new StressSlot(ctx, 'cpu-stress', deadline);
  }

  async inject(): Promise<void> {
    if (this.stress.running) return;
    const { container } = this.ctx.target;
    const capacity = await readCpuCapacity(container, this.ctx.reads);
    const percentage = percentageOfCapacity(this.count, capacity.capacity);
    const join = container ? cgroupDirs(container) : [];
    this.ctx.log.info('starting cpu stress', { container: container?.id, cpusetCpus: capacity.cpusetCpus, quotaCpus: capacity.quotaCpus, capacity: capacity.capacity, percentage });
    const args = ['--percentage', String(percentage), '--cpus', String(capacity.capacity), ...(join.length > 0 ? ['--join', join.join(',')] : [])];
    await this.stress.start(args);
  }

  clean(): Promise<void> {
    return this.stress.stop();
  }
}

export const cpuPressureKind: KindDefinition = {
  name: 'cpu-pressure',
  options: [{ flags: '--count <count>', description: 'CPUs to stress: a number, or a percentage of the capacity such as 50%', defaultValue: '100%' }],
  create: (ctx, values) => new CpuPressureInjector(ctx, parseCpuCount(String(values['count'] ?? '100%')), deadlineOf(values)),
};
