// The service network the API server allocates from: the service CIDR (kube-apiserver's
// --service-cluster-ip-range), the NodePort range, and the two addresses kept for the system Services.
// IPv4 only: pods and the node's bridge are IPv4, so an IPv6 range would give Services nobody can reach.
import { isIPv4 } from 'node:net';

export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
export const NODE_PORT_MIN = 30000;
export const NODE_PORT_MAX = 32767;

export interface ServiceNetwork {
  /** The CIDR as given, for messages (`The range of valid IPs is 10.96.0.0/12`). */
  readonly cidr: string;
  /** The network address and the number of addresses, as 32-bit numbers. */
  readonly base: number;
  readonly size: number;
  /** The first usable address: `default/kubernetes`. */
  readonly kubernetesIP: string;
  /** The cluster DNS address: `kube-system/kube-dns` (the tenth address unless --cluster-dns says otherwise). */
  readonly clusterDNS: string;
}

export class ServiceNetworkError extends Error {}

export function ipToNumber(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

export function numberToIp(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** Whether `ip` is an address the allocator may hand out: inside the range, not its network or broadcast address. */
export function inServiceRange(network: ServiceNetwork, ip: string): boolean {
  if (!isIPv4(ip)) return false;
  const offset = ipToNumber(ip) - network.base;
  return offset > 0 && offset < network.size - 1;
}

/** Parses and checks the CIDR and the DNS address, as kube-apiserver checks its flags at start. */
export function serviceNetwork(cidr = DEFAULT_SERVICE_CIDR, clusterDNS?: string): ServiceNetwork {
  const match = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(cidr);
  const prefix = Number(match?.[2]);
  if (!match || !isIPv4(match[1] ?? '') || prefix > 30 || prefix < 8) {
    throw new ServiceNetworkError(`service CIDR ${JSON.stringify(cidr)} must be an IPv4 CIDR with a prefix between /8 and /30 (e.g. ${DEFAULT_SERVICE_CIDR})`);
  }
  const size = 2 ** (32 - prefix);
  const base = ipToNumber(match[1] ?? '') - (ipToNumber(match[1] ?? '') % size);
  const partial = { cidr: `${numberToIp(base)}/${prefix}`, base, size };
  const kubernetesIP = numberToIp(base + 1);
  const dns = clusterDNS ?? numberToIp(base + Math.min(10, size - 2));
  const network = { ...partial, kubernetesIP, clusterDNS: dns };
  if (!inServiceRange(network, dns)) throw new ServiceNetworkError(`cluster DNS address ${JSON.stringify(dns)} is not in the service CIDR ${network.cidr}`);
  if (dns === kubernetesIP) throw new ServiceNetworkError(`cluster DNS address ${dns} is the address of the kubernetes Service`);
  return network;
}
