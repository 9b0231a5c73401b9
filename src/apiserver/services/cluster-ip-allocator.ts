// ClusterIP allocation over the service CIDR, as kube-apiserver's ipallocator answers: a requested address must
// be in the range and free, an empty one gets a free address at random (the upper part of the range first, so
// the low "static" band stays for addresses people choose). What is allocated is what the stored Services hold:
// the choice is made synchronously with the store's write of the Service (ResourceType.allocate), so it is as
// durable as the Service, two creates never get the same address, and a deleted Service's address is free again.
import { randomInt } from 'node:crypto';
import { errors } from '../../apimachinery/status-error.ts';
import { fieldError, toStatusCauses } from '../../apimachinery/field-error.ts';
import { path } from '../../apimachinery/field-path.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { goStrings } from './field-checks.ts';
import { isHeadless, needsClusterIP, serviceSpec } from './service-defaults.ts';
import { inServiceRange, numberToIp, type ServiceNetwork } from './service-network.ts';

function clusterIPOf(service: KubeObject): string | undefined {
  const spec = serviceSpec(service);
  const first = Array.isArray(spec['clusterIPs']) ? (spec['clusterIPs'] as unknown[])[0] : spec['clusterIP'];
  return typeof first === 'string' && first !== '' ? first : undefined;
}

/** The addresses kept for the system Services, and who may hold each. */
function reservations(network: ServiceNetwork): Map<string, string> {
  return new Map([
    [network.kubernetesIP, 'default/kubernetes'],
    [network.clusterDNS, 'kube-system/kube-dns'],
  ]);
}

/** ipallocator's static band: min(max(16, size/16), 256) addresses at the bottom of the range. */
function staticBand(network: ServiceNetwork): number {
  return Math.min(Math.max(16, Math.floor(network.size / 16)), 256);
}

function pick(network: ServiceNetwork, taken: Set<string>): string | undefined {
  const last = network.size - 2;
  const lowest = Math.min(staticBand(network), last);
  // Dynamic band first, from a random start, wrapping; then the static band the same way.
  for (const [from, to] of [
    [lowest, last],
    [1, lowest - 1],
  ] as const) {
    if (to < from) continue;
    const count = to - from + 1;
    const start = randomInt(count);
    for (let i = 0; i < count; i++) {
      const ip = numberToIp(network.base + from + ((start + i) % count));
      if (!taken.has(ip)) return ip;
    }
  }
  return undefined;
}

function refuse(service: KubeObject, ip: string, detail: string): never {
  const ips = serviceSpec(service)['clusterIPs'];
  const error = { ...fieldError.invalid(path('spec').child('clusterIPs'), null, `failed to allocate IP ${ip}: ${detail}`), badValue: goStrings(Array.isArray(ips) ? ips : [ip]) };
  throw errors.invalid('Service', '', service.metadata.name ?? '', toStatusCauses([error]));
}

/** Gives `service` its ClusterIP (checks a requested one); `others` are the other stored Services. */
export function allocateClusterIP(network: ServiceNetwork, service: KubeObject, old: KubeObject | undefined, others: readonly KubeObject[]): void {
  const spec = serviceSpec(service);
  if (!needsClusterIP(spec) || isHeadless(spec)) return;
  const requested = clusterIPOf(service);
  // Already this Service's: an update that kept its address (immutability is validation's).
  if (requested !== undefined && old && needsClusterIP(serviceSpec(old)) && clusterIPOf(old) === requested) return;
  const self = `${service.metadata.namespace ?? ''}/${service.metadata.name ?? ''}`;
  const taken = new Set<string>();
  for (const other of others) {
    const ip = clusterIPOf(other);
    if (ip !== undefined && needsClusterIP(serviceSpec(other))) taken.add(ip);
  }
  for (const [ip, owner] of reservations(network)) if (owner !== self) taken.add(ip);
  if (requested !== undefined) {
    if (!inServiceRange(network, requested)) refuse(service, requested, `the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${network.cidr}`);
    if (taken.has(requested)) refuse(service, requested, 'provided IP is already allocated');
    return;
  }
  const ip = pick(network, taken);
  if (ip === undefined) throw errors.internal('failed to allocate a serviceIP: range is full');
  spec['clusterIP'] = ip;
  spec['clusterIPs'] = [ip];
}

