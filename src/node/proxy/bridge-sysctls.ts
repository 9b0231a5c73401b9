// The two settings of the pods' bridge that the proxy needs, both of the bridge interface only (never a
// host-wide sysctl): forwarding, so that a connection DNATed from one pod to another is routed back onto the
// bridge (the proxy's forward chain keeps it there), and route_localnet, so that DNAT may lead to an endpoint
// on 127.0.0.0/8 (the API server behind the `kubernetes` Service; the input chain drops any other packet
// from the bridge to loopback addresses). Without the proxy both are off, as the pod network leaves them.
import { writeFile } from 'node:fs/promises';

async function set(bridge: string, setting: 'forwarding' | 'route_localnet', on: boolean): Promise<void> {
  await writeFile(`/proc/sys/net/ipv4/conf/${bridge}/${setting}`, on ? '1' : '0');
}

export async function enableProxyRouting(bridge: string): Promise<void> {
  await Promise.all([set(bridge, 'route_localnet', true), set(bridge, 'forwarding', true)]);
}

export async function disableProxyRouting(bridge: string): Promise<void> {
  await Promise.all([set(bridge, 'forwarding', false), set(bridge, 'route_localnet', false)]);
}
