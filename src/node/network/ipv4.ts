// IPv4 addresses and CIDR blocks as unsigned 32-bit numbers, which makes subnetting plain arithmetic.
import { PodNetworkConfigError } from './errors.ts';

export interface Ipv4Cidr {
  /** The network address (host bits zero). */
  network: number;
  prefix: number;
}

const OCTET = /^(0|[1-9]\d{0,2})$/;

export function parseAddress(text: string): number {
  const octets = text.split('.');
  if (octets.length !== 4 || !octets.every((octet) => OCTET.test(octet) && Number(octet) <= 255)) {
    throw new PodNetworkConfigError(`"${text}" is not an IPv4 address`);
  }
  return octets.reduce((value, octet) => value * 256 + Number(octet), 0);
}

export function formatAddress(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

export function parseCidr(text: string): Ipv4Cidr {
  const [address, prefixText, extra] = text.split('/');
  if (address === undefined || prefixText === undefined || extra !== undefined || !/^\d{1,2}$/.test(prefixText)) {
    throw new PodNetworkConfigError(`"${text}" is not an IPv4 CIDR block (like 10.244.0.0/16)`);
  }
  const prefix = Number(prefixText);
  if (prefix > 32) throw new PodNetworkConfigError(`"${text}": a prefix length is at most 32`);
  const network = parseAddress(address);
  if (network % blockSize(prefix) !== 0) {
    throw new PodNetworkConfigError(`"${text}" has host bits set; did you mean ${formatCidr({ network: network - (network % blockSize(prefix)), prefix })}?`);
  }
  return { network, prefix };
}

export function formatCidr(cidr: Ipv4Cidr): string {
  return `${formatAddress(cidr.network)}/${cidr.prefix}`;
}

/** How many addresses the block spans. */
export function blockSize(prefix: number): number {
  return 2 ** (32 - prefix);
}

export function containsAddress(cidr: Ipv4Cidr, address: number): boolean {
  return address >= cidr.network && address < cidr.network + blockSize(cidr.prefix);
}

export function containsCidr(outer: Ipv4Cidr, inner: Ipv4Cidr): boolean {
  return inner.prefix >= outer.prefix && containsAddress(outer, inner.network);
}

/** The blocks of the given prefix length that make up `outer`, in address order. */
export function* subnets(outer: Ipv4Cidr, prefix: number): Generator<Ipv4Cidr> {
  const size = blockSize(prefix);
  for (let network = outer.network; network < outer.network + blockSize(outer.prefix); network += size) {
    yield { network, prefix };
  }
}

/** The first usable address of a block: the gateway by convention. */
export function gatewayOf(cidr: Ipv4Cidr): number {
  return cidr.network + 1;
}
