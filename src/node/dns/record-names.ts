// The names cluster DNS derives from addresses: reverse-lookup names (in-addr.arpa, ip6.arpa) and the dashed
// form of an address that names a pod (10-244-0-5.ns.pod.cluster.local) or an endpoint without a hostname.
import { isIPv4, isIPv6 } from 'node:net';

/** A name without its trailing dot, lower-cased: DNS compares names case-insensitively. */
export function canonicalName(name: string): string {
  return name.replace(/\.$/, '').toLowerCase();
}

/** An IPv6 address as its 32 hexadecimal digits. */
function ipv6Nibbles(address: string): string {
  const [head = '', tail] = address.toLowerCase().split('::');
  const groups = (part: string | undefined) => (part === undefined || part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = groups(tail);
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((g) => g.padStart(4, '0')).join('');
}

/** 5.0.244.10.in-addr.arpa for 10.244.0.5; the nibble form under ip6.arpa for IPv6; undefined for anything else. */
export function reverseName(address: string): string | undefined {
  if (isIPv4(address)) return `${address.split('.').reverse().join('.')}.in-addr.arpa`;
  if (isIPv6(address) && !address.includes('.')) return `${[...ipv6Nibbles(address)].reverse().join('.')}.ip6.arpa`;
  return undefined;
}

/** 10-244-0-5 for 10.244.0.5, fd00--5 for fd00::5 (CoreDNS's endpoint and pod names). */
export function dashedAddress(address: string): string {
  return address.toLowerCase().replace(/[.:]/g, '-');
}
