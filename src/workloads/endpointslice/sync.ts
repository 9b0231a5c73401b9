// One sync of a Service's EndpointSlices (the endpointslice controller's syncService and the reconciler's
// finalize): plan from the pods the selector matches and the slices this controller manages, then write the
// creates (never for a Service being deleted), updates and deletes. Nothing is written when nothing changed.
import type { EndpointSlice, Node, Pod, Service } from '../../apimachinery/api/index.ts';
import { endpointSlicesResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { action, LABEL_INDEX, labelIndexValue, messageOf, TerminalError, type Action, type EventRecorder, type Informer, type ReconcileContext } from '../../runtime/index.ts';
import { SERVICE_NAME_LABEL } from '../../apimachinery/api/discovery-v1.ts';
import { planSlices, type SlicePlan } from './reconciler.ts';
import { endpointSelector, podsOfService } from './service-pods.ts';
import { ownedBy } from './slice-meta.ts';
import type { SliceWrites } from './slice-writes.ts';
import { setTriggerTime, type TriggerTimeTracker } from './trigger-time.ts';
import { isNamespaceTerminating, unretriable } from './write-errors.ts';

export interface EndpointSliceControllerData {
  client: KubeClient;
  recorder: EventRecorder;
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  /** Only the slices this controller manages (the informer filters on the managed-by label). */
  slices: Informer<EndpointSlice>;
  writes: SliceWrites;
  triggerTimes: TriggerTimeTracker;
  maxEndpointsPerSlice: number;
}

export async function syncEndpointSlices(service: Service, ctx: ReconcileContext<EndpointSliceControllerData>): Promise<Action> {
  const d = ctx.data;
  const namespace = service.metadata.namespace ?? '';
  const name = service.metadata.name ?? '';
  const cached = d.slices.byIndex(LABEL_INDEX, labelIndexValue(SERVICE_NAME_LABEL, name)).filter((slice) => slice.metadata.namespace === namespace);
  // Slices already being deleted are left to finish, so a slow finalizer cannot wedge the Service.
  const existing = d.writes.view(ctx.key, cached).filter((slice) => slice.metadata.deletionTimestamp === undefined);

  // ExternalName and selectorless Services get no slices from this controller; ones it made for this very
  // Service before go (a slice someone else labelled as ours, like one the API server writes, stays).
  const plan: SlicePlan = endpointSelector(service)
    ? planFor(d, service, existing)
    : { create: [], update: [], delete: existing.filter((slice) => ownedBy(slice, service)), skipped: [] };

  try {
    await write(d, service, ctx, plan);
  } catch (err) {
    const message = `Error updating Endpoint Slices for Service ${namespace}/${name}: ${messageOf(err)}`;
    void d.recorder.warning(service, 'FailedToUpdateEndpointSlices', message);
    throw unretriable(err) ? new TerminalError(message, { cause: err }) : err;
  }
  // A pod on a missing node is left out until its node appears: the node watch wakes the Service then.
  if (plan.skipped.length > 0) void d.recorder.warning(service, 'FailedToUpdateEndpointSlices', `Error updating Endpoint Slices for Service ${namespace}/${name}: ${plan.skipped.join('; ')}`);
  return action.awaitChange();
}

function planFor(d: EndpointSliceControllerData, service: Service, existing: EndpointSlice[]): SlicePlan {
  const pods = podsOfService(d.pods, service);
  const triggerTime = d.triggerTimes.compute(service, pods);
  const plan = planSlices({ service, pods, existing, node: (n) => d.nodes.get(n), maxEndpointsPerSlice: d.maxEndpointsPerSlice });
  for (const slice of [...plan.create, ...plan.update]) setTriggerTime((slice.metadata.annotations ??= {}), triggerTime);
  return plan;
}

async function write(d: EndpointSliceControllerData, service: Service, ctx: ReconcileContext<EndpointSliceControllerData>, plan: SlicePlan): Promise<void> {
  const namespace = service.metadata.namespace ?? '';
  const signal = ctx.signal;
  // Creating slices for a Service on its way out would race the garbage collector.
  if (service.metadata.deletionTimestamp === undefined) {
    for (const slice of plan.create) {
      try {
        d.writes.recordCreate(ctx.key, await d.client.create(endpointSlicesResource, slice, { namespace, signal }));
      } catch (err) {
        // The namespace is going away: its slices will never be needed.
        if (isNamespaceTerminating(err)) return;
        throw err;
      }
    }
  }
  for (const slice of plan.update) d.writes.recordUpdate(slice, await d.client.update(endpointSlicesResource, slice, { namespace, signal }));
  for (const slice of plan.delete) {
    const sliceName = slice.metadata.name ?? '';
    try {
      await d.client.delete(endpointSlicesResource, sliceName, { namespace, signal });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
    d.writes.recordDelete(slice, d.slices.get(sliceName, namespace)?.metadata.uid === slice.metadata.uid);
  }
}
