// Registers the Job controller (kube-controller-manager's job controller for NonIndexed Jobs), its orphan-pod
// finalizer cleanup and the TTL-after-finished controller.
import { objectKey } from '../../apimachinery/object.ts';
import type { Controller, Manager } from '../../runtime/index.ts';
import { jobsResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import type { Job, Pod } from '../../apimachinery/api/index.ts';
import { Expectations, observeExpectations } from '../pods/expectations.ts';
import { controllerOf } from '../pods/owner.ts';
import { PodControl } from '../pods/pod-control.ts';
import { FinalizerExpectations } from './finalizer-expectations.ts';
import { registerJobOrphanPods } from './orphan-pods.ts';
import { PodFailureBackoff } from './pod-failure-backoff.ts';
import { syncJob, type JobControllerData } from './sync.ts';
import { registerTtlAfterFinished } from './ttl-after-finished.ts';

export interface JobControllerOptions {
  name?: string;
  concurrency?: number;
  /** First delay before replacing a failed pod, doubled per failure since the last success; default 10 s. */
  podFailureBackoffMs?: number;
  /** Cap of that delay; default 10 minutes. */
  maxPodFailureBackoffMs?: number;
  /** Pod events of a Job within this window cost one sync (upstream batches for 1 s); default 100 ms. */
  podEventBatchMs?: number;
  now?: () => Date;
}

export function registerJobController(mgr: Manager, options: JobControllerOptions = {}): Controller<Job, JobControllerData> {
  const name = options.name ?? 'job';
  const pods = mgr.informer<Pod>(podsResource);
  const recorder = mgr.recorder('job-controller');
  const expectations = new Expectations();
  const finalizers = new FinalizerExpectations();
  const jobOf = (pod: Pod): string | undefined => {
    const ref = controllerOf(pod);
    return ref?.kind === 'Job' && ref.apiVersion.startsWith('batch/') ? objectKey(pod.metadata.namespace, ref.name) : undefined;
  };
  observeExpectations(pods, expectations, jobOf);
  finalizers.observe(pods);
  const data: JobControllerData = {
    client: mgr.client,
    recorder,
    pods,
    podControl: new PodControl(mgr.client, recorder),
    expectations,
    finalizers,
    backoff: new PodFailureBackoff(options.podFailureBackoffMs ?? 10_000, options.maxPodFailureBackoffMs ?? 600_000),
    now: options.now ?? (() => new Date()),
  };
  const controller = mgr
    .controller<Job, JobControllerData>({ name, for: jobsResource, data, concurrency: options.concurrency ?? 5, reconcile: syncJob })
    .owns(pods, { delayMs: options.podEventBatchMs ?? 100 });
  registerJobOrphanPods(mgr, `${name}-orphan-pods`);
  registerTtlAfterFinished(mgr, { name: `${name}-ttl-after-finished`, ...(options.now ? { now: options.now } : {}) });
  return controller;
}
