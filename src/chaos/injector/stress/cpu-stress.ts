// `bosun inject cpu-stress`: the child of cpu-pressure. It joins the target's cgroups and burns `percentage`%
// of `cpus` CPUs (the target's capacity, computed by the parent): one worker thread per CPU it needs, each
// busy for its share of every 100 ms window and asleep for the rest (upstream: one goroutine per cpuset CPU).
import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { InjectorLogger } from '../injector.ts';
import { childEnd, joinCgroups, reportAtWork } from './child.ts';

export interface CpuStressOptions {
  percentage: number;
  /** The capacity the percentage is of, in CPUs (may be fractional: a quota of 1.5 CPUs). */
  cpus: number;
  /** Cgroup directories to join first. */
  join: readonly string[];
  parentPid?: number;
  deadline?: Date;
}

// Plain JavaScript, evaluated in each worker: busy for the shared duty (parts per million) of every 100 ms
// window, then Atomics.wait for the rest.
const BURN = `
const { workerData } = require('node:worker_threads');
const duty = new Int32Array(workerData.duty);
const lock = new Int32Array(new SharedArrayBuffer(4));
const WINDOW = 100;
for (;;) {
  const start = performance.now();
  const busy = (Atomics.load(duty, 0) / 1e6) * WINDOW;
  while (performance.now() - start < busy) {}
  const rest = WINDOW - (performance.now() - start);
  if (rest > 0) Atomics.wait(lock, 0, 0, rest);
}
`;

/** How often the duty is corrected from the CPU time the process actually got. */
const CONTROL_INTERVAL_MS = 500;

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
  // As upstream: nice −20, so that the target's own processes (and the node's) do not starve the stress of the
  // share it was asked for. Set before the workers start: Linux threads inherit their creator's nice value.
  try {
    setPriority(-20);
  } catch (error) {
    log.warn('could not raise the stress priority (needs CAP_SYS_NICE)', { error });
  }
  const duty = new Int32Array(new SharedArrayBuffer(4));
  Atomics.store(duty, 0, Math.round(plan.duty * 1e6));
  const workers = Array.from({ length: plan.workers }, () => new Worker(BURN, { eval: true, workerData: { duty: duty.buffer } }));
  reportAtWork();
  log.info('cpu stress started', { pid: process.pid, percentage: options.percentage, cpus: options.cpus, workers: plan.workers, duty: plan.duty, cgroups: options.join });
  // Busy for a share of wall time is less CPU time when other processes preempt the workers (or the quota
  // throttles them mid-window): correct the duty from the CPU time this process actually got, towards the load.
  const load = plan.workers * plan.duty;
  let last = { cpu: process.cpuUsage(), at: performance.now() };
  const control = setInterval(() => {
    const now = { cpu: process.cpuUsage(), at: performance.now() };
    const used = (now.cpu.user + now.cpu.system - last.cpu.user - last.cpu.system) / 1000 / (now.at - last.at);
    last = now;
    const next = Atomics.load(duty, 0) / 1e6 + (0.5 * (load - used)) / Math.max(1, plan.workers);
    Atomics.store(duty, 0, Math.round(Math.min(1, Math.max(0, next)) * 1e6));
  }, CONTROL_INTERVAL_MS);
  const reason = await childEnd(options.parentPid, options.deadline);
  clearInterval(control);
  await Promise.all(workers.map((worker) => worker.terminate()));
  log.info('cpu stress stopped', { pid: process.pid, reason });
  return 0;
}
