// Landscaper's own metrics on the manager's /metrics, beside the generic controller_runtime_* ones:
// installations, executions and deploy items by phase, counted from the shared informers' caches at scrape
// time (no ticker, no extra reads), and how long jobs take from start (transitionTimes.initTime) to finish
// (finishedTime), observed when the informer sees a job finish.
import { Gauge, Histogram } from 'prom-client';
import type { KubeObject } from '../apimachinery/object.ts';
import type { ResourceTarget } from '../client/client.ts';
import type { Informer, Manager } from '../runtime/index.ts';
import { INSTALLATION_PHASES, KIND_DEPLOY_ITEM, KIND_EXECUTION, KIND_INSTALLATION } from './api/constants.ts';
import { deployItemsResource, executionsResource, installationsResource } from './api/resources.ts';
import type { TransitionTimes } from './api/shared.ts';
import { parseLsTime } from './status-helpers.ts';

type JobObject = KubeObject & { status?: { phase?: string; jobID?: string; jobIDFinished?: string; transitionTimes?: TransitionTimes } };

/** Jobs take seconds (a mock item) to the 10-minute progressing timeout and beyond. */
const jobBuckets = [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/** Objects without a phase yet (never picked up). */
const NO_PHASE = 'None';

export function registerLandscaperMetrics(mgr: Manager): void {
  const registers = [mgr.metrics.registry];
  const kinds: { kind: string; metric: string; resource: ResourceTarget }[] = [
    { kind: KIND_INSTALLATION, metric: 'landscaper_installations', resource: installationsResource },
    { kind: KIND_EXECUTION, metric: 'landscaper_executions', resource: executionsResource },
    { kind: KIND_DEPLOY_ITEM, metric: 'landscaper_deployitems', resource: deployItemsResource },
  ];
  const durations = new Histogram({
    name: 'landscaper_job_duration_seconds',
    help: 'Time from the start of a job (transitionTimes.initTime) to its finish, per kind and final phase',
    labelNames: ['kind', 'phase'],
    buckets: jobBuckets,
    registers,
  });
  for (const { kind, metric, resource } of kinds) {
    const informer = mgr.informer<JobObject>(resource);
    new Gauge({
      name: metric,
      help: `Number of ${kind} objects per phase`,
      labelNames: ['phase'],
      registers,
      collect() {
        this.reset();
        // Every phase shows, at 0 when empty, so that a series does not vanish when its last object moves on.
        for (const [phase, count] of countByPhase(informer)) this.set({ phase }, count);
      },
    });
    informer.addEventHandler({
      onUpdate: (old, obj) => {
        const seconds = finishedJobSeconds(old, obj);
        if (seconds !== undefined) durations.observe({ kind, phase: obj.status?.phase ?? NO_PHASE }, seconds);
      },
    });
  }
}

function countByPhase(informer: Informer<JobObject>): Map<string, number> {
  const counts = new Map<string, number>(INSTALLATION_PHASES.map((p) => [p, 0]));
  for (const obj of informer.list()) {
    const phase = obj.status?.phase || NO_PHASE;
    counts.set(phase, (counts.get(phase) ?? 0) + 1);
  }
  return counts;
}

/** The duration of the job this update finished, if it finished one. */
function finishedJobSeconds(old: JobObject, obj: JobObject): number | undefined {
  const s = obj.status;
  if (!s?.jobID || s.jobIDFinished !== s.jobID || old.status?.jobIDFinished === s.jobIDFinished) return undefined;
  const start = parseLsTime(s.transitionTimes?.initTime);
  const end = parseLsTime(s.transitionTimes?.finishedTime);
  if (start === undefined || end === undefined || end < start) return undefined;
  return (end - start) / 1000;
}
