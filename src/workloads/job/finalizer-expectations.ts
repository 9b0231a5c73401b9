// The job controller's uidTrackingExpectations: pods whose tracking finalizer this controller removed and whose
// removal the informer has not shown yet. Until then a stale cached pod still carries the finalizer and must not be
// counted a second time.
import type { EventSource } from '../pods/expectations.ts';
import type { Pod } from '../../apimachinery/api/index.ts';
import { JOB_TRACKING_FINALIZER } from './constants.ts';

export class FinalizerExpectations {
  private readonly byJob = new Map<string, Set<string>>();
  private readonly jobOfPod = new Map<string, string>();

  expectRemoval(jobKey: string, podUid: string): void {
    let uids = this.byJob.get(jobKey);
    if (!uids) this.byJob.set(jobKey, (uids = new Set()));
    uids.add(podUid);
    this.jobOfPod.set(podUid, jobKey);
  }

  observed(podUid: string): void {
    const jobKey = this.jobOfPod.get(podUid);
    if (jobKey === undefined) return;
    this.jobOfPod.delete(podUid);
    const uids = this.byJob.get(jobKey);
    uids?.delete(podUid);
    if (uids?.size === 0) this.byJob.delete(jobKey);
  }

  expected(jobKey: string): ReadonlySet<string> {
    return this.byJob.get(jobKey) ?? new Set();
  }

  forgetJob(jobKey: string): void {
    for (const uid of this.byJob.get(jobKey) ?? []) this.jobOfPod.delete(uid);
    this.byJob.delete(jobKey);
  }

  /** Marks removals as seen when the informer shows a pod without the finalizer, or the pod gone. */
  observe(pods: EventSource<Pod>): () => void {
    const check = (pod: Pod): void => {
      if (!(pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER)) this.observed(pod.metadata.uid ?? '');
    };
    return pods.addEventHandler({ onAdd: check, onUpdate: (_old, pod) => check(pod), onDelete: (pod) => this.observed(pod.metadata.uid ?? '') });
  }
}
