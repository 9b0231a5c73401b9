// Which deploy item events wake a deployer: only items of its type, and only changes that can start or
// change a job. Our own status writes (phase, lastError, providerStatus) must not, or error backoff and
// readiness polling would degenerate into tight loops.
import type { Predicate } from '../../../runtime/index.ts';
import type { DeployItem } from '../../api/deploy-item.ts';

export function deployItemTypeIs(type: string): Predicate<DeployItem> {
  return (e) => e.object.spec?.type === type;
}

export function jobRelevantChange(): Predicate<DeployItem> {
  return (e) => {
    if (e.type !== 'modified' || !e.old) return true;
    const a = e.old;
    const b = e.object;
    return a.metadata.generation !== b.metadata.generation
      || a.metadata.deletionTimestamp !== b.metadata.deletionTimestamp
      || JSON.stringify(a.metadata.annotations ?? {}) !== JSON.stringify(b.metadata.annotations ?? {})
      || a.status?.jobID !== b.status?.jobID
      || a.status?.jobIDFinished !== b.status?.jobIDFinished;
  };
}
