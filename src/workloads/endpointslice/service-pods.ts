// Which pods a Service selects and which Services a pod change concerns, as the endpointslice util package
// (GetPodServiceMemberships, GetServicesToUpdateOnPodChange, podEndpointsChanged) decides it for both the
// endpointslice and the endpoints controller.
import { isDeepStrictEqual } from 'node:util';
import { keyOf, type Informer, type Predicate } from '../../runtime/index.ts';
import type { Pod, Service } from '../../apimachinery/api/index.ts';
import { isPodReady } from '../pods/pod-state.ts';

/**
 * The selector of a Service the controllers keep endpoints for, or undefined: ExternalName Services and Services
 * without a selector (their endpoints are written by whoever owns them) get nothing. An empty selector counts as
 * none, as it does once kube-apiserver has stored it.
 */
export function endpointSelector(service: Service): Record<string, string> | undefined {
  if (service.spec?.type === 'ExternalName') return undefined;
  const selector = service.spec?.selector;
  return selector && Object.keys(selector).length > 0 ? selector : undefined;
}

function selects(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  for (const key in selector) if (labels?.[key] !== selector[key]) return false;
  return true;
}

/** The pods of the Service's namespace its selector matches (none for a Service endpointSelector skips). */
export function podsOfService(pods: Informer<Pod>, service: Service): Pod[] {
  const selector = endpointSelector(service);
  if (!selector) return [];
  return pods.list(service.metadata.namespace ?? '').filter((pod) => selects(selector, pod.metadata.labels));
}

/** Maps a pod to the keys of the Services selecting it (the controller maps the old pod of an update too). */
export function servicesOfPod(services: Informer<Service>): (pod: Pod) => string[] {
  return (pod) =>
    services
      .list(pod.metadata.namespace ?? '')
      .filter((service) => {
        const selector = endpointSelector(service);
        return selector !== undefined && selects(selector, pod.metadata.labels);
      })
      .map(keyOf);
}

/** The addresses a pod reports: status.podIPs, or status.podIP where the kubelet wrote only that. */
export function podAddresses(pod: Pod): string[] {
  const ips = pod.status?.podIPs?.map((p) => p.ip).filter((ip) => ip !== '') ?? [];
  if (ips.length > 0) return ips;
  return pod.status?.podIP ? [pod.status.podIP] : [];
}

/**
 * Lets through the pod updates that can change endpoints: labels, hostname and subdomain (membership and
 * hostnames), deletion, readiness, addresses, node and a terminal phase; kubelet status churn otherwise is dropped.
 */
export const podEndpointsChanged: Predicate<Pod> = (event) => {
  const old = event.old;
  if (event.type !== 'modified' || !old) return true;
  const pod = event.object;
  if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return false;
  return (
    !isDeepStrictEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {}) ||
    old.spec.hostname !== pod.spec.hostname ||
    old.spec.subdomain !== pod.spec.subdomain ||
    old.spec.nodeName !== pod.spec.nodeName ||
    old.metadata.deletionTimestamp !== pod.metadata.deletionTimestamp ||
    isPodReady(old) !== isPodReady(pod) ||
    old.status?.phase !== pod.status?.phase ||
    !isDeepStrictEqual(podAddresses(old), podAddresses(pod))
  );
};
