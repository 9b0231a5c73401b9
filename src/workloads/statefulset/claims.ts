// A StatefulSet pod's PersistentVolumeClaims (stateful_pod_control.go): created from the claim templates before
// the pod, never deleted by the controller itself; persistentVolumeClaimRetentionPolicy decides who owns them,
// and so what the garbage collector removes. whenDeleted: Delete makes the set their owner (they go with the
// set); whenScaled: Delete makes a scaled-down pod their owner (they go with the pod).
import type { KubeClient } from '../../client/client.ts';
import { AlreadyExistsError, NotFoundError } from '../../client/errors.ts';
import type { EventRecorder, Informer } from '../../runtime/index.ts';
import { persistentVolumeClaimsResource } from '../../apimachinery/builtin-resources.ts';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../apimachinery/api/index.ts';
import type { OwnerReference } from '../../apimachinery/object.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import { controllerRefTo } from '../pods/owner.ts';
import { claimsFor, inOrdinalRange, ordinalOf } from './identity.ts';

export interface ClaimControl {
  client: KubeClient;
  claims: Informer<PersistentVolumeClaim>;
  recorder: EventRecorder;
}

function cached(c: ClaimControl, claim: PersistentVolumeClaim): PersistentVolumeClaim | undefined {
  return c.claims.get(claim.metadata.name ?? '', claim.metadata.namespace);
}

/** createPersistentVolumeClaims: the pod's missing claims; a claim still being deleted holds the pod back. */
export async function createMissingClaims(c: ClaimControl, set: StatefulSet, pod: Pod): Promise<void> {
  const errors: unknown[] = [];
  for (const claim of claimsFor(set, ordinalOf(pod))) {
    const existing = cached(c, claim);
    if (existing?.metadata.deletionTimestamp !== undefined) {
      errors.push(new Error(`pvc ${claim.metadata.name ?? ''} is being deleted`));
      continue;
    }
    if (existing) continue;
    try {
      await c.client.create(persistentVolumeClaimsResource, claim);
      void c.recorder.normal(set, 'SuccessfulCreate', `create Claim ${claim.metadata.name ?? ''} Pod ${pod.metadata.name ?? ''} in StatefulSet ${set.metadata.name ?? ''} success`);
    } catch (err) {
      if (err instanceof AlreadyExistsError) continue;
      void c.recorder.warning(set, 'FailedCreate', `create Claim ${claim.metadata.name ?? ''} for Pod ${pod.metadata.name ?? ''} in StatefulSet ${set.metadata.name ?? ''} failed error: ${messageOf(err)}`);
      errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
}

/**
 * PodClaimIsStale: a claim still owned by an earlier pod of the same name (scaled down with whenScaled: Delete)
 * is about to be collected; the new pod must not mount it.
 */
export function hasStaleClaim(c: ClaimControl, set: StatefulSet, pod: Pod): boolean {
  return claimsFor(set, ordinalOf(pod)).some((claim) =>
    (cached(c, claim)?.metadata.ownerReferences ?? []).some((r) => r.kind === 'Pod' && r.name === pod.metadata.name && r.uid !== pod.metadata.uid),
  );
}

/** The owner references the retention policy asks of a claim of pod (claimOwnerMatchesSetAndPod). */
function wantedOwners(set: StatefulSet, pod: Pod): { setOwns: boolean; podOwns: boolean } {
  const policy = set.spec.persistentVolumeClaimRetentionPolicy ?? {};
  const scaledDown = !inOrdinalRange(set, pod);
  const podOwns = policy.whenScaled === 'Delete' && scaledDown;
  return { setOwns: policy.whenDeleted === 'Delete' && !podOwns, podOwns };
}

/** The claim's owner references fixed for the policy, or undefined when they already match. */
function fixedOwners(set: StatefulSet, pod: Pod, claim: PersistentVolumeClaim): OwnerReference[] | undefined {
  const refs = claim.metadata.ownerReferences ?? [];
  // A claim some other controller owns is left alone.
  if (refs.some((r) => r.controller === true && r.uid !== set.metadata.uid)) return undefined;
  const { setOwns, podOwns } = wantedOwners(set, pod);
  const setUid = set.metadata.uid ?? '';
  const podUid = pod.metadata.uid ?? '';
  const hasSet = refs.some((r) => r.uid === setUid);
  const hasPod = refs.some((r) => r.uid === podUid);
  if (hasSet === setOwns && hasPod === podOwns) return undefined;
  const kept = refs.filter((r) => r.uid !== setUid && r.uid !== podUid);
  if (setOwns) kept.push(controllerRefTo(set, 'apps/v1', 'StatefulSet'));
  if (podOwns) kept.push({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: podUid });
  return kept;
}

/** Whether every claim of the created pod is owned as the policy says (a claim not yet seen counts as matching). */
export function claimsMatchRetentionPolicy(c: ClaimControl, set: StatefulSet, pod: Pod): boolean {
  if (!pod.metadata.uid) return true;
  return claimsFor(set, ordinalOf(pod)).every((claim) => {
    const existing = cached(c, claim);
    return existing === undefined || fixedOwners(set, pod, existing) === undefined;
  });
}

/** UpdatePodClaimForRetentionPolicy: patches the owner references of the pod's claims (resourceVersion-guarded). */
export async function updateClaimsForRetentionPolicy(c: ClaimControl, set: StatefulSet, pod: Pod): Promise<void> {
  if (!pod.metadata.uid) return;
  for (const claim of claimsFor(set, ordinalOf(pod))) {
    const existing = cached(c, claim);
    const owners = existing && fixedOwners(set, pod, existing);
    if (!existing || !owners) continue;
    try {
      await c.client.patch(persistentVolumeClaimsResource, existing.metadata.name ?? '', { metadata: { resourceVersion: existing.metadata.resourceVersion, ownerReferences: owners } }, {
        type: 'merge',
        namespace: existing.metadata.namespace ?? '',
      });
    } catch (err) {
      if (err instanceof NotFoundError) continue;
      void c.recorder.warning(set, 'FailedUpdate', `update Claim ${existing.metadata.name ?? ''} for Pod ${pod.metadata.name ?? ''} in StatefulSet ${set.metadata.name ?? ''} failed error: ${messageOf(err)}`);
      throw err;
    }
  }
}
