// Registers the endpointslice controller (kube-controller-manager's): every Service with a selector gets
// EndpointSlices of the pods it selects. A Service is synced when it changes, when a pod it selects (or selected)
// changes in a way that matters, when one of its slices is changed or deleted by someone else, and when the node
// of one of its pods appears or changes zone.
import type { EndpointSlice, Node, Pod, Service } from '../../apimachinery/api/index.ts';
import { MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from '../../apimachinery/api/discovery-v1.ts';
import { endpointSlicesResource, nodesResource, podsResource, servicesResource } from '../../apimachinery/builtin-resources.ts';
import { objectKey } from '../../apimachinery/object.ts';
import { keyOf, type Controller, type Manager, type Predicate } from '../../runtime/index.ts';
import { ensureIndex, POD_NODE_INDEX, podNodeIndex } from '../pods/indexes.ts';
import { podEndpointsChanged, servicesOfPod } from './service-pods.ts';
import { ENDPOINTSLICE_CONTROLLER_NAME } from './slice-meta.ts';
import { SliceWrites } from './slice-writes.ts';
import { syncEndpointSlices, type EndpointSliceControllerData } from './sync.ts';
import { TriggerTimeTracker } from './trigger-time.ts';

export interface EndpointSliceControllerOptions {
  name?: string;
  concurrency?: number;
  /** Endpoints per slice at most (--max-endpoints-per-slice); default 100. */
  maxEndpointsPerSlice?: number;
}

const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** A node matters to endpoints when it comes, goes or changes zone. */
const nodeTopologyChanged: Predicate<Node> = (event) =>
  event.type !== 'modified' || event.old?.metadata.labels?.[ZONE_LABEL] !== event.object.metadata.labels?.[ZONE_LABEL];

export function registerEndpointSliceController(mgr: Manager, options: EndpointSliceControllerOptions = {}): Controller<Service, EndpointSliceControllerData> {
  const pods = mgr.informer<Pod>(podsResource);
  const services = mgr.informer<Service>(servicesResource);
  const nodes = mgr.informer<Node>(nodesResource);
  const sliceFilter = { labelSelector: `${MANAGED_BY_LABEL}=${ENDPOINTSLICE_CONTROLLER_NAME}` };
  const slices = mgr.informer<EndpointSlice>(endpointSlicesResource, sliceFilter);
  ensureIndex(pods, POD_NODE_INDEX, podNodeIndex);
  const triggerTimes = new TriggerTimeTracker();
  const writes = new SliceWrites(slices, mgr.readYourWrites<EndpointSlice>(endpointSlicesResource, sliceFilter));
  services.addEventHandler({
    onDelete: (service) => {
      triggerTimes.forget(keyOf(service));
      writes.forgetService(keyOf(service));
    },
  });
  const data: EndpointSliceControllerData = {
    client: mgr.client,
    recorder: mgr.recorder('endpointslice-controller'),
    pods,
    nodes,
    slices,
    writes,
    triggerTimes,
    maxEndpointsPerSlice: options.maxEndpointsPerSlice ?? 100,
  };
  const podServices = servicesOfPod(services);
  return mgr
    .controller<Service, EndpointSliceControllerData>({ name: options.name ?? 'endpointslice', for: servicesResource, data, concurrency: options.concurrency ?? 5, reconcile: syncEndpointSlices })
    .watches(pods, podServices, { predicates: [podEndpointsChanged] })
    .watches(slices, (slice) => {
      const service = slice.metadata.labels?.[SERVICE_NAME_LABEL];
      return service ? [objectKey(slice.metadata.namespace, service)] : [];
    })
    .watches(nodes, (node) => [...new Set(pods.byIndex(POD_NODE_INDEX, node.metadata.name ?? '').flatMap(podServices))], { predicates: [nodeTopologyChanged] });
}
