// Registers the StatefulSet controller: StatefulSets own their pods and ControllerRevisions, whose changes wake
// them; a claim going away wakes the sets whose templates name it (a pod waits for its stale claim to go).
import { objectKey } from '../../apimachinery/object.ts';
import type { Controller, Manager } from '../../runtime/index.ts';
import { controllerRevisionsResource, persistentVolumeClaimsResource, podsResource, statefulSetsResource } from '../../apimachinery/builtin-resources.ts';
import type { ControllerRevision, PersistentVolumeClaim, Pod, StatefulSet } from '../../apimachinery/api/index.ts';
import { syncStatefulSet, type StatefulSetControllerData } from './sync.ts';

export interface StatefulSetControllerOptions {
  name?: string;
  concurrency?: number;
  now?: () => Date;
}

export function registerStatefulSetController(mgr: Manager, options: StatefulSetControllerOptions = {}): Controller<StatefulSet, StatefulSetControllerData> {
  const sets = mgr.informer<StatefulSet>(statefulSetsResource);
  const pods = mgr.informer<Pod>(podsResource);
  const revisions = mgr.informer<ControllerRevision>(controllerRevisionsResource);
  const claims = mgr.informer<PersistentVolumeClaim>(persistentVolumeClaimsResource);
  const writes = mgr.readYourWrites<StatefulSet>(statefulSetsResource);
  const data: StatefulSetControllerData = {
    client: mgr.client,
    recorder: mgr.recorder('statefulset-controller'),
    pods,
    revisions,
    claims,
    writes,
    status: mgr.statusWriter<StatefulSet>(statefulSetsResource, { readYourWrites: writes }),
    now: options.now ?? (() => new Date()),
  };
  const setsNamingClaim = (claim: PersistentVolumeClaim): string[] =>
    sets
      .list(claim.metadata.namespace ?? '')
      .filter((set) => (set.spec.volumeClaimTemplates ?? []).some((t) => (claim.metadata.name ?? '').startsWith(`${t.metadata.name ?? ''}-${set.metadata.name ?? ''}-`)))
      .map((set) => objectKey(set.metadata.namespace, set.metadata.name ?? ''));
  return mgr
    .controller<StatefulSet, StatefulSetControllerData>({ name: options.name ?? 'statefulset', for: statefulSetsResource, data, concurrency: options.concurrency ?? 5, reconcile: syncStatefulSet })
    .owns(pods)
    .owns(revisions)
    .watches(claims, setsNamingClaim, { predicates: [(e) => e.type === 'deleted'] });
}
