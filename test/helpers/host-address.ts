// A non-loopback IPv4 address of this host, for a test server the API server must reach as it reaches a pod IP
// (kube refuses loopback addresses in Endpoints and EndpointSlices).
import { networkInterfaces } from 'node:os';

export function hostAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal);
  if (!found) throw new Error('this host has no non-loopback IPv4 address for the test server to listen on');
  return found.address;
}
