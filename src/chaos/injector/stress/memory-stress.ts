// `bosun inject memory-stress`: the child of memory-pressure. It joins the target's cgroups, reads the memory
// limit and usage, and allocates limit × percent − usage, at once or in 1 s steps over the ramp. Every page is
// written so that it is charged to the cgroup (an untouched allocation is not). It holds the memory until it
// is told to end; exiting frees it.
import { readFile } from 'node:fs/promises';
import type { InjectorLogger } from '../injector.ts';
import { parseMemoryLimit } from '../cgroups.ts';
import { sleep } from '../durations.ts';
import { childEnd, joinCgroups, reportAtWork } from './child.ts';

export interface MemoryStressOptions {
  targetPercent: number;
  rampMs: number;
  join: readonly string[];
  limitFile: string;
  usageFile: string;
  parentPid?: number;
  deadline?: Date;
}

const CHUNK = 16 * 1024 * 1024;

export async function runMemoryStress(options: MemoryStressOptions, log: InjectorLogger): Promise<number> {
  await joinCgroups(options.join);
  const limit = parseMemoryLimit(await readFile(options.limitFile, 'utf8'), options.limitFile);
  const usage = Number((await readFile(options.usageFile, 'utf8')).trim());
  const wanted = Math.max(0, Math.floor((limit * options.targetPercent) / 100 - usage));
  log.info('memory stress started', { pid: process.pid, limit, usage, targetPercent: options.targetPercent, allocating: wanted, rampMs: options.rampMs });

  const stop = new AbortController();
  const ended = childEnd(options.parentPid, options.deadline).then((reason) => {
    stop.abort();
    return reason;
  });
  const held: Buffer[] = [];
  const steps = Math.max(1, Math.ceil(options.rampMs / 1000));
  let allocated = 0;
  for (let step = 1; step <= steps && !stop.signal.aborted; step++) {
    const until = Math.floor((wanted * step) / steps);
    while (allocated < until && !stop.signal.aborted) {
      const size = Math.min(CHUNK, until - allocated);
      held.push(Buffer.allocUnsafeSlow(size).fill(0xa5));
      allocated += size;
    }
    // At work once the first share is held (all of it without a ramp): readiness follows the memory.
    if (step === 1) reportAtWork();
    if (step < steps) await sleep(1000, stop.signal);
  }
  if (!stop.signal.aborted) log.info('memory stress allocated', { pid: process.pid, allocated });
  const reason = await ended;
  log.info('memory stress stopped', { pid: process.pid, reason, allocated });
  held.length = 0;
  return 0;
}
