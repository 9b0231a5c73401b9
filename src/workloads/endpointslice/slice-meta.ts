// The metadata the endpointslice controller gives its slices (newEndpointSlice, setEndpointSliceLabels): the
// Service's labels, the headless marker, the service-name and managed-by labels, a controller reference.
import { isDeepStrictEqual } from 'node:util';
import type { EndpointSlice, EndpointSlicePort, Service } from '../../apimachinery/api/index.ts';
import { MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from '../../apimachinery/api/discovery-v1.ts';
import type { OwnerReference } from '../../apimachinery/object.ts';
import { controllerRefTo } from '../pods/owner.ts';

/** The managed-by value of the slices this controller keeps; it never touches others. */
export const ENDPOINTSLICE_CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
/** Set (empty) on the slices and Endpoints of a Service without a cluster IP. */
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';

const reserved = new Set([SERVICE_NAME_LABEL, MANAGED_BY_LABEL, HEADLESS_LABEL]);

/** ClusterIP set and not "None" (helper.IsServiceIPSet). */
export function isServiceIPSet(service: Service): boolean {
  const ip = service.spec?.clusterIP ?? '';
  return ip !== '' && ip !== 'None';
}

function withoutReserved(labels: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(labels ?? {}).filter(([key]) => !reserved.has(key)));
}

/** The labels a slice of the Service must carry, and whether the slice's own differ from the Service's. */
export function sliceLabels(slice: EndpointSlice | undefined, service: Service): { labels: Record<string, string>; changed: boolean } {
  const wanted = withoutReserved(service.metadata.labels);
  const changed = slice !== undefined && !isDeepStrictEqual(withoutReserved(slice.metadata.labels), wanted);
  const labels: Record<string, string> = { ...wanted };
  if (!isServiceIPSet(service)) labels[HEADLESS_LABEL] = '';
  labels[SERVICE_NAME_LABEL] = service.metadata.name ?? '';
  labels[MANAGED_BY_LABEL] = ENDPOINTSLICE_CONTROLLER_NAME;
  return { labels, changed };
}

export function serviceControllerRef(service: Service): OwnerReference {
  return controllerRefTo(service, 'v1', 'Service');
}

/** True when the slice belongs to this very Service (not to a deleted one of the same name). */
export function ownedBy(slice: EndpointSlice, service: Service): boolean {
  return (slice.metadata.ownerReferences ?? []).some((ref) => ref.uid === service.metadata.uid && ref.kind === 'Service' && ref.apiVersion === 'v1');
}

export function newEndpointSlice(service: Service, addressType: EndpointSlice['addressType'], ports: EndpointSlicePort[]): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: `${service.metadata.name ?? ''}-`,
      namespace: service.metadata.namespace ?? '',
      labels: sliceLabels(undefined, service).labels,
      ownerReferences: [serviceControllerRef(service)],
    },
    addressType,
    endpoints: [],
    ports,
  };
}
