// The endpointslice reconciler (k8s.io/endpointslice Reconciler), as a plan: from a Service, its pods and its
// existing slices, which slices to create, update and delete. Endpoints are grouped by address type and by the
// set of ports they resolve to (a pod without a named port lands in another group); existing slices are kept
// and changed in place where possible, filled up to maxEndpointsPerSlice, and a Service without endpoints keeps
// one empty placeholder slice.
import { isIPv6 } from 'node:net';
import type { Endpoint, EndpointSlice, EndpointSlicePort, Node, Pod, Service } from '../../apimachinery/api/index.ts';
import { isPodReady } from '../pods/pod-state.ts';
import { EndpointSet, endpointsEqualBeyondKey } from './endpoint-set.ts';
import { findPort, protocolOf, shouldPodBeInEndpoints, shouldSetHostname } from './pod-endpoint.ts';
import { podAddresses } from './service-pods.ts';
import { isServiceIPSet, newEndpointSlice, ownedBy, sliceLabels } from './slice-meta.ts';

type AddressType = EndpointSlice['addressType'];

/** Nodes' topology.kubernetes.io/zone label becomes the endpoint's zone. */
const ZONE_LABEL = 'topology.kubernetes.io/zone';

export interface SlicePlan {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: EndpointSlice[];
  /** Pods left out because their node does not exist (upstream retries the Service for them). */
  skipped: string[];
}

export interface ReconcileInput {
  service: Service;
  pods: readonly Pod[];
  /** The Service's slices managed by this controller, none pending deletion. */
  existing: readonly EndpointSlice[];
  node(name: string): Node | undefined;
  maxEndpointsPerSlice: number;
}

/**
 * The address types a Service's slices have: its ipFamilies, else the family of its cluster IP. Bosun's clusters
 * are single-stack IPv4, so a headless Service without ipFamilies gets IPv4 (upstream assumes both there).
 */
export function addressTypesOf(service: Service): Set<AddressType> {
  const families = service.spec?.ipFamilies ?? [];
  if (families.length > 0) return new Set(families);
  return new Set([isServiceIPSet(service) && isIPv6(service.spec?.clusterIP ?? '') ? 'IPv6' : 'IPv4']);
}

function endpointPorts(service: Service, pod: Pod): EndpointSlicePort[] {
  const ports: EndpointSlicePort[] = [];
  for (const servicePort of service.spec?.ports ?? []) {
    const port = findPort(pod, servicePort);
    if (port === undefined) continue;
    ports.push({ name: servicePort.name ?? '', port, protocol: protocolOf(servicePort), ...(servicePort.appProtocol ? { appProtocol: servicePort.appProtocol } : {}) });
  }
  return ports;
}

/** One key per set of ports, whatever their order. */
function portMapKey(ports: readonly EndpointSlicePort[] | undefined): string {
  return JSON.stringify((ports ?? []).map((p) => [p.name ?? '', p.protocol ?? '', p.port ?? 0, p.appProtocol ?? '']).sort());
}

function podToEndpoint(pod: Pod, node: Node | undefined, service: Service, addressType: AddressType): Endpoint {
  const serving = isPodReady(pod);
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  // A terminating pod is never ready, unless the Service publishes not-ready addresses anyway.
  const ready = service.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const endpoint: Endpoint = {
    addresses: podAddresses(pod).filter((ip) => isIPv6(ip) === (addressType === 'IPv6')),
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
  };
  if (pod.spec.nodeName) endpoint.nodeName = pod.spec.nodeName;
  const zone = node?.metadata.labels?.[ZONE_LABEL];
  if (zone) endpoint.zone = zone;
  if (shouldSetHostname(pod, service)) endpoint.hostname = pod.spec.hostname ?? '';
  return endpoint;
}

export function planSlices(input: ReconcileInput): SlicePlan {
  const supported = addressTypesOf(input.service);
  const plan: SlicePlan = { create: [], update: [], delete: [], skipped: [] };
  for (const addressType of supported) {
    const existing = input.existing.filter((slice) => slice.addressType === addressType);
    const part = planForAddressType(input, existing, addressType, plan.skipped);
    plan.create.push(...part.create);
    plan.update.push(...part.update);
    plan.delete.push(...part.delete);
  }
  // Slices of an address type the Service no longer has.
  plan.delete.push(...input.existing.filter((slice) => !supported.has(slice.addressType)));
  return plan;
}

interface Desired {
  ports: EndpointSlicePort[];
  endpoints: EndpointSet;
}

function planForAddressType(input: ReconcileInput, existingSlices: EndpointSlice[], addressType: AddressType, skipped: string[]): Omit<SlicePlan, 'skipped'> {
  const { service } = input;
  const toDelete: EndpointSlice[] = [];
  const existingByPortMap = new Map<string, EndpointSlice[]>();
  for (const slice of existingSlices) {
    if (!ownedBy(slice, service)) {
      toDelete.push(slice);
      continue;
    }
    const key = portMapKey(slice.ports);
    existingByPortMap.set(key, [...(existingByPortMap.get(key) ?? []), slice]);
  }

  const desiredByPortMap = new Map<string, Desired>();
  for (const pod of input.pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = endpointPorts(service, pod);
    const key = portMapKey(ports);
    let desired = desiredByPortMap.get(key);
    if (!desired) desiredByPortMap.set(key, (desired = { ports, endpoints: new EndpointSet() }));
    const node = input.node(pod.spec.nodeName ?? '');
    if (!node && service.spec?.publishNotReadyAddresses !== true) {
      // A pod whose node is gone is left out rather than kept in the slice forever.
      skipped.push(`skipping Pod ${pod.metadata.name ?? ''} for Service ${service.metadata.namespace ?? ''}/${service.metadata.name ?? ''}: Node ${pod.spec.nodeName ?? ''} Not Found`);
      continue;
    }
    const endpoint = podToEndpoint(pod, node, service, addressType);
    if (endpoint.addresses.length > 0) desired.endpoints.insert(endpoint);
  }

  const toCreate: EndpointSlice[] = [];
  const toUpdate: EndpointSlice[] = [];
  for (const [key, desired] of desiredByPortMap) {
    const part = planForPortMap(input, existingByPortMap.get(key) ?? [], desired, addressType);
    toCreate.push(...part.create);
    toUpdate.push(...part.update);
    toDelete.push(...part.delete);
  }
  for (const [key, slices] of existingByPortMap) if (!desiredByPortMap.has(key)) toDelete.push(...slices);

  // A Service without endpoints keeps one empty slice, so consumers can tell "no endpoints" from "not synced".
  if (existingSlices.length === toDelete.length && toCreate.length === 0) {
    const placeholder = newEndpointSlice(service, addressType, []);
    const only = toDelete[0];
    if (toDelete.length === 1 && only && isSamePlaceholder(only, placeholder)) toDelete.length = 0;
    else toCreate.push(placeholder);
  }
  return reuseDeletedForCreates(service, toCreate, toUpdate, toDelete);
}

function isSamePlaceholder(slice: EndpointSlice, placeholder: EndpointSlice): boolean {
  const labels = slice.metadata.labels ?? {};
  const wanted = placeholder.metadata.labels ?? {};
  return (
    slice.metadata.namespace === placeholder.metadata.namespace &&
    slice.addressType === placeholder.addressType &&
    (slice.endpoints ?? []).length === 0 &&
    (slice.ports ?? []).length === 0 &&
    Object.keys(labels).length === Object.keys(wanted).length &&
    Object.entries(wanted).every(([k, v]) => labels[k] === v)
  );
}

/** Creates become updates of slices that would otherwise be deleted: fewer writes, stable names. */
function reuseDeletedForCreates(service: Service, create: EndpointSlice[], update: EndpointSlice[], del: EndpointSlice[]): Omit<SlicePlan, 'skipped'> {
  const remaining: EndpointSlice[] = [];
  for (const victim of del) {
    const slice = create.at(-1);
    if (slice && victim.addressType === slice.addressType && ownedBy(victim, service)) {
      create.pop();
      update.push({ ...victim, metadata: { ...structuredClone(victim.metadata), labels: slice.metadata.labels ?? {} }, endpoints: slice.endpoints, ports: slice.ports ?? [] });
    } else {
      remaining.push(victim);
    }
  }
  return { create, update, delete: remaining };
}

/**
 * One group of slices with the same ports: 1. drop endpoints no longer desired and update changed ones in the
 * existing slices; 2. fill the slices being updated anyway; 3. put what is left into the unchanged slice closest
 * to full that fits it, or into new slices.
 */
function planForPortMap(input: ReconcileInput, existingSlices: EndpointSlice[], desired: Desired, addressType: AddressType): Omit<SlicePlan, 'skipped'> {
  const max = input.maxEndpointsPerSlice;
  const byName = new Map<string, EndpointSlice>();
  const unchanged = new Set<string>();
  const toUpdate = new Set<string>();
  const toDelete = new Set<string>();
  const wanted = desired.endpoints;

  for (const slice of existingSlices) {
    const name = slice.metadata.name ?? '';
    byName.set(name, slice);
    const kept: Endpoint[] = [];
    let endpointChanged = false;
    for (const endpoint of slice.endpoints ?? []) {
      const got = wanted.get(endpoint);
      if (!got) continue;
      kept.push(got);
      if (!endpointsEqualBeyondKey(got, endpoint)) endpointChanged = true;
      wanted.delete(endpoint);
    }
    const { labels, changed: labelsChanged } = sliceLabels(slice, input.service);
    if (endpointChanged || kept.length !== (slice.endpoints ?? []).length) {
      if (kept.length === 0) toDelete.add(name);
      else {
        byName.set(name, { ...structuredClone(slice), endpoints: kept, metadata: { ...structuredClone(slice.metadata), labels } });
        toUpdate.add(name);
      }
    } else if (labelsChanged) {
      byName.set(name, { ...structuredClone(slice), metadata: { ...structuredClone(slice.metadata), labels } });
      toUpdate.add(name);
    } else {
      unchanged.add(name);
    }
  }

  if (wanted.size > 0 && toUpdate.size > 0) {
    const fullestFirst = [...toUpdate].map((n) => byName.get(n)!).sort((a, b) => b.endpoints.length - a.endpoints.length);
    for (const slice of fullestFirst) fill(slice, wanted, max);
  }

  const toCreate: EndpointSlice[] = [];
  while (wanted.size > 0) {
    let slice: EndpointSlice | undefined;
    if (wanted.size < max && unchanged.size > 0) {
      const fit = sliceToFill([...unchanged].map((n) => byName.get(n)!), wanted.size, max);
      if (fit) {
        slice = structuredClone(fit);
        byName.set(slice.metadata.name ?? '', slice);
      }
    }
    slice ??= newEndpointSlice(input.service, addressType, desired.ports);
    fill(slice, wanted, max);
    const name = slice.metadata.name;
    if (name) {
      toUpdate.add(name);
      unchanged.delete(name);
    } else {
      toCreate.push(slice);
    }
  }
  return { create: toCreate, update: [...toUpdate].map((n) => byName.get(n)!), delete: [...toDelete].map((n) => byName.get(n)!) };
}

function fill(slice: EndpointSlice, wanted: EndpointSet, max: number): void {
  slice.endpoints ??= [];
  while (wanted.size > 0 && slice.endpoints.length < max) slice.endpoints.push(wanted.take()!);
}

/** The slice that will be closest to full once count endpoints are added, if one has room (getSliceToFill). */
function sliceToFill(slices: EndpointSlice[], count: number, max: number): EndpointSlice | undefined {
  let closestDiff = max;
  let closest: EndpointSlice | undefined;
  for (const slice of slices) {
    const diff = max - (count + (slice.endpoints ?? []).length);
    if (diff >= 0 && diff < closestDiff) {
      closestDiff = diff;
      closest = slice;
      if (diff === 0) break;
    }
  }
  return closest;
}
