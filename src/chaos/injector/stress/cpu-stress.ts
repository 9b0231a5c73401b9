// `bosun inject cpu-stress`: the child of cpu-pressure. It joins the target's cgroups and burns `percentage`%
// of `cpus` CPUs (the target's capacity, computed by the parent): one worker thread per CPU it needs, each
// busy for its share of every 100 ms window and asleep for the rest (upstream: one goroutine per cpuset CPU).
import { Worker } from 'node:worker_threads';
import type { InjectorLogger } from '../injector.ts';
import { childEnd, joinCgroups } from './child.ts';

export interface CpuStressOptions {
  percentage: number;
  /** The capacity the percentage is of, in CPUs (may be fractional: a quota of 1.5 CPUs). */
  cpus: number;
  /** Cgroup directories to join first. */
  join: readonly string[];
  parentPid?: number;
  deadline?: Date;
}

// Plain JavaScript, evaluated in each worker: busy for `duty` of every 100 ms window, then Atomics.wait for the rest.
const BURN = `
const { workerData } = require('node:worker_threads');
const lock = new Int32Array(new SharedArrayBuffer(4));
const WINDOW = 100;
for (;;) {
  const start = performance.now();
  while (performance.now() - start < workerData.duty * WINDOW) {}
  const rest = WINDOW - (performance.now() - start);
  if (rest > 0) Atomics.wait(lock, 0, 0, rest);
}
`;

/** How the load is split: n workers each busy `duty` of the time, summing to cpus × percentage. */
export function burnPlan(percentage: number, cpus: number): { workers: number; duty: number } {
  const load = (cpus * Math.min(100, Math.max(0, percentage))) / 100;
  if (load <= 0) return { workers: 0, duty: 0 };
  const workers = Math.ceil(load);
  return { workers, duty: load / workers };
}

export async function runCpuStress(options: CpuStressOptions, log: InjectorLogger): Promise<number> {
  await joinCgroups(options.join);
  const plan = burnPlan(options.percentage, options.cpus);
  const workers = Array.from({ length: plan.workers }, () => new Worker(BURN, { eval: true, workerData: { duty: plan.duty } }));
  log.info('cpu stress started', { pid: process.pid, percentage: options.percentage, cpus: options.cpus, workers: plan.workers, duty: plan.duty, cgroups: options.join });
  const reason = await childEnd(options.parentPid, options.deadline);
  await Promise.all(workers.map((worker) => worker.terminate()));
  log.info('cpu stress stopped', { pid: process.pid, reason });
  return 0;
}
