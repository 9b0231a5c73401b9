// The subsets of a Service's core/v1 Endpoints (the endpoints controller's syncService, addEndpointSubset,
// RepackSubsets and truncateEndpoints): one address per pod and Service port, ready or not, repacked into the
// canonical form, grouped by the set of ports a set of addresses offers, sorted, so that comparing the result
// with the stored object tells whether anything changed.
import { isIPv6 } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import type { EndpointAddress, EndpointPort, EndpointSubset, Pod, Service } from '../../apimachinery/api/index.ts';
import { isPodReady } from '../pods/pod-state.ts';
import { findPort, protocolOf, shouldPodBeInEndpoints, shouldSetHostname } from '../endpointslice/pod-endpoint.ts';
import { podAddresses } from '../endpointslice/service-pods.ts';
import { isServiceIPSet } from '../endpointslice/slice-meta.ts';

/** Addresses an Endpoints object holds at most; beyond, it is truncated and annotated (maxCapacity). */
export const MAX_ENDPOINTS_CAPACITY = 1000;

interface Entry {
  address: EndpointAddress;
  ready: boolean;
  port: EndpointPort | undefined;
}

/** The IP family the Service's Endpoints use: its first ipFamily, else its cluster IP's, else the pod's. */
function wantsIPv6(service: Service, pod: Pod): boolean {
  const family = service.spec?.ipFamilies?.[0];
  if (family) return family === 'IPv6';
  if (isServiceIPSet(service)) return isIPv6(service.spec?.clusterIP ?? '');
  return isIPv6(pod.status?.podIP ?? '');
}

function addressOf(service: Service, pod: Pod): EndpointAddress | undefined {
  const ipv6 = wantsIPv6(service, pod);
  const ip = podAddresses(pod).find((a) => isIPv6(a) === ipv6);
  if (!ip) return undefined;
  const address: EndpointAddress = { ip, targetRef: { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' } };
  if (pod.spec.nodeName) address.nodeName = pod.spec.nodeName;
  if (shouldSetHostname(pod, service)) address.hostname = pod.spec.hostname ?? '';
  return address;
}

/** The canonical subsets for the Service's pods. */
export function desiredSubsets(service: Service, pods: readonly Pod[]): EndpointSubset[] {
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const servicePorts = service.spec?.ports ?? [];
  const entries: Entry[] = [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address = addressOf(service, pod);
    if (!address) continue;
    const ready = publishNotReady || isPodReady(pod);
    if (servicePorts.length === 0) {
      // A headless Service may have no ports: its addresses alone (for DNS).
      if (service.spec?.clusterIP === 'None') entries.push({ address, ready, port: undefined });
      continue;
    }
    for (const servicePort of servicePorts) {
      const port = findPort(pod, servicePort);
      if (port === undefined) continue;
      entries.push({ address, ready, port: { name: servicePort.name ?? '', port, protocol: protocolOf(servicePort), ...(servicePort.appProtocol ? { appProtocol: servicePort.appProtocol } : {}) } });
    }
  }
  return repack(entries);
}

const addressKey = (a: EndpointAddress): string => `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
const compareAddresses = (a: EndpointAddress, b: EndpointAddress): number => (addressKey(a) < addressKey(b) ? -1 : addressKey(a) > addressKey(b) ? 1 : 0);
const portKey = (p: EndpointPort): string => JSON.stringify([p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? '']);

/** Groups the addresses by port, then the ports by identical address sets; not ready wins over ready. */
function repack(entries: readonly Entry[]): EndpointSubset[] {
  const byPort = new Map<string, { port: EndpointPort | undefined; addresses: Map<string, Entry> }>();
  for (const entry of entries) {
    const key = entry.port ? portKey(entry.port) : '';
    let group = byPort.get(key);
    if (!group) byPort.set(key, (group = { port: entry.port, addresses: new Map() }));
    const existing = group.addresses.get(addressKey(entry.address));
    if (!existing || existing.ready) group.addresses.set(addressKey(entry.address), entry);
  }
  const bySignature = new Map<string, { addresses: Entry[]; ports: EndpointPort[] }>();
  for (const group of byPort.values()) {
    const addresses = [...group.addresses.values()].sort((a, b) => compareAddresses(a.address, b.address));
    const signature = JSON.stringify(addresses.map((e) => [addressKey(e.address), e.ready]));
    let subset = bySignature.get(signature);
    if (!subset) bySignature.set(signature, (subset = { addresses, ports: [] }));
    if (group.port) subset.ports.push(group.port);
  }
  const subsets = [...bySignature.values()].map(({ addresses, ports }) => {
    const subset: EndpointSubset = {};
    const ready = addresses.filter((e) => e.ready).map((e) => e.address);
    const notReady = addresses.filter((e) => !e.ready).map((e) => e.address);
    if (ready.length > 0) subset.addresses = ready;
    if (notReady.length > 0) subset.notReadyAddresses = notReady;
    if (ports.length > 0) subset.ports = ports.sort((a, b) => (portKey(a) < portKey(b) ? -1 : 1));
    return subset;
  });
  return subsets.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

/**
 * Keeps at most MAX_ENDPOINTS_CAPACITY addresses, ready ones first, each subset keeping its share; returns
 * whether anything was cut (the Endpoints are then annotated over-capacity).
 */
export function truncateSubsets(subsets: EndpointSubset[]): boolean {
  let totalReady = 0;
  let totalNotReady = 0;
  for (const s of subsets) {
    totalReady += s.addresses?.length ?? 0;
    totalNotReady += s.notReadyAddresses?.length ?? 0;
  }
  if (totalReady + totalNotReady <= MAX_ENDPOINTS_CAPACITY) return false;
  const truncateReady = totalReady > MAX_ENDPOINTS_CAPACITY;
  const max = truncateReady ? MAX_ENDPOINTS_CAPACITY : MAX_ENDPOINTS_CAPACITY - totalReady;
  const total = truncateReady ? totalReady : totalNotReady;
  let room = max;
  for (const s of subsets) {
    const inSubset = (truncateReady ? s.addresses : s.notReadyAddresses)?.length ?? 0;
    const share = Math.min(Math.ceil((inSubset / total) * max), room);
    if (truncateReady) {
      s.addresses = s.addresses?.slice(0, share);
      delete s.notReadyAddresses;
      room -= s.addresses?.length ?? 0;
    } else {
      s.notReadyAddresses = s.notReadyAddresses?.slice(0, share);
      room -= s.notReadyAddresses?.length ?? 0;
    }
    if (s.addresses?.length === 0) delete s.addresses;
    if (s.notReadyAddresses?.length === 0) delete s.notReadyAddresses;
  }
  return true;
}

/** Equal, ignoring the pod resourceVersion a targetRef may carry (a pod status write must not rewrite them). */
export function subsetsEqual(current: readonly EndpointSubset[] | undefined, desired: readonly EndpointSubset[]): boolean {
  const strip = (subsets: readonly EndpointSubset[]): EndpointSubset[] =>
    subsets.map((s) => {
      const out = structuredClone(s);
      for (const a of [...(out.addresses ?? []), ...(out.notReadyAddresses ?? [])]) delete a.targetRef?.resourceVersion;
      return out;
    });
  return isDeepStrictEqual(strip(current ?? []), strip(desired));
}
