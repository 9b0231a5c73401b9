// One sync of a Service's core/v1 Endpoints (the endpoints controller's syncService): named after the Service,
// with the Service's labels (plus the headless marker), the subsets of the pods its selector matches, the
// last-change-trigger-time annotation, and over-capacity truncation. Services without a selector are left
// alone: their Endpoints belong to whoever wrote them. Written only when subsets or labels changed.
import { isDeepStrictEqual } from 'node:util';
import type { Endpoints, Pod, Service } from '../../apimachinery/api/index.ts';
import { endpointsResource } from '../../apimachinery/builtin-resources.ts';
import { objectKey } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import { action, messageOf, TerminalError, type Action, type EventRecorder, type Informer, type ReadYourWrites, type ReconcileContext } from '../../runtime/index.ts';
import { endpointSelector, podsOfService } from '../endpointslice/service-pods.ts';
import { isNamespaceTerminating, unretriable } from '../endpointslice/write-errors.ts';
import { HEADLESS_LABEL, isServiceIPSet, serviceControllerRef } from '../endpointslice/slice-meta.ts';
import { setTriggerTime, type TriggerTimeTracker } from '../endpointslice/trigger-time.ts';
import { desiredSubsets, subsetsEqual, truncateSubsets } from './subsets.ts';

export const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';

export interface EndpointsControllerData {
  client: KubeClient;
  recorder: EventRecorder;
  pods: Informer<Pod>;
  endpoints: Informer<Endpoints>;
  writes: ReadYourWrites<Endpoints>;
  triggerTimes: TriggerTimeTracker;
}

function desiredLabels(service: Service): Record<string, string> {
  const labels: Record<string, string> = { ...service.metadata.labels };
  if (isServiceIPSet(service)) delete labels[HEADLESS_LABEL];
  else labels[HEADLESS_LABEL] = '';
  return labels;
}

export async function syncEndpoints(service: Service, ctx: ReconcileContext<EndpointsControllerData>): Promise<Action> {
  const d = ctx.data;
  if (!endpointSelector(service)) return action.awaitChange();
  const namespace = service.metadata.namespace ?? '';
  const name = service.metadata.name ?? '';
  const pods = podsOfService(d.pods, service);
  // Computed on every sync, so the tracker knows the pods' state even when nothing is written.
  const triggerTime = d.triggerTimes.compute(service, pods);
  const subsets = desiredSubsets(service, pods);
  const truncated = truncateSubsets(subsets);
  const labels = desiredLabels(service);
  const key = objectKey(namespace, name);
  const cached = d.endpoints.get(name, namespace);
  const current = cached ? d.writes.resolve(cached) : d.writes.pending(key);
  const ref = serviceControllerRef(service);
  const refs = current?.metadata.ownerReferences ?? [];
  const hasOwner = refs.some((r) => r.uid === ref.uid);
  if (current && hasOwner && subsetsEqual(current.subsets, subsets) && isDeepStrictEqual(current.metadata.labels ?? {}, labels) && (current.metadata.annotations?.[OVER_CAPACITY_ANNOTATION] !== undefined) === truncated) {
    return action.awaitChange();
  }

  const next: Endpoints = current
    ? structuredClone(current)
    : { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace } };
  next.subsets = subsets;
  next.metadata.labels = labels;
  // The garbage collector removes the Endpoints with their Service (upstream deletes them itself).
  // An object has one controller reference at most: one to an earlier Service of this name is replaced.
  if (!hasOwner) next.metadata.ownerReferences = [...refs.filter((r) => r.controller !== true), ref];
  const annotations = (next.metadata.annotations ??= {});
  setTriggerTime(annotations, triggerTime);
  if (truncated) annotations[OVER_CAPACITY_ANNOTATION] = 'truncated';
  else delete annotations[OVER_CAPACITY_ANNOTATION];

  try {
    const written = current
      ? await d.client.update(endpointsResource, next, { namespace, signal: ctx.signal })
      : await d.client.create(endpointsResource, next, { namespace, signal: ctx.signal });
    d.writes.record(current?.metadata.resourceVersion ?? '', written);
  } catch (err) {
    // The namespace is going away: its Endpoints will never be needed.
    if (!current && isNamespaceTerminating(err)) return action.awaitChange();
    const [reason, message] = current
      ? ['FailedToUpdateEndpoint', `Failed to update endpoint ${namespace}/${name}: ${messageOf(err)}`]
      : ['FailedToCreateEndpoint', `Failed to create endpoint for service ${namespace}/${name}: ${messageOf(err)}`];
    void d.recorder.warning(next, reason, message);
    throw unretriable(err) ? new TerminalError(message, { cause: err }) : err;
  }
  return action.awaitChange();
}
