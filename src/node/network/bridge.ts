// The node's bridge: one Linux bridge per machine that every agent on it shares. Each agent's gateway is an
// address of its own node block on the bridge (10.244.N.1/24), while pods use the cluster-wide mask
// (10.244.N.x/16): pods of every node on the machine are one Ethernet segment and reach each other directly,
// the host has a route to each node's block, and nothing needs IP forwarding. The bridge's addresses are also
// the machine's register of claimed node blocks: adding an address that exists fails, so two agents starting at
// once cannot claim the same block.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { HostCommandError, isAlreadyGone, isAlreadyThere, runHostCommand } from './host-command.ts';
import { formatAddress, gatewayOf, parseAddress, type Ipv4Cidr } from './ipv4.ts';

/** Marks bridges this provider created, so that teardown never deletes one it did not make. */
export const BRIDGE_ALIAS = 'bosun-pod-network';

export interface BridgeState {
  kind: string | undefined;
  alias: string | undefined;
  /** Its IPv4 addresses as address/prefix. */
  addresses: { address: number; prefix: number }[];
  /** The interfaces enslaved to it. */
  ports: string[];
}

interface IpAddrJson {
  ifname: string;
  ifalias?: string;
  linkinfo?: { info_kind?: string };
  addr_info?: { family?: string; local?: string; prefixlen?: number }[];
}

export async function inspectBridge(name: string): Promise<BridgeState | undefined> {
  let links: IpAddrJson[];
  try {
    links = JSON.parse(await runHostCommand(['ip', '-json', '-details', 'addr', 'show', 'dev', name])) as IpAddrJson[];
  } catch (error) {
    if (isAlreadyGone(error)) return undefined;
    throw error;
  }
  const link = links[0];
  if (!link) return undefined;
  const ports = JSON.parse(await runHostCommand(['ip', '-json', 'link', 'show', 'master', name])) as { ifname: string }[];
  return {
    kind: link.linkinfo?.info_kind,
    alias: link.ifalias,
    addresses: (link.addr_info ?? [])
      .filter((info) => info.family === 'inet' && info.local !== undefined && info.prefixlen !== undefined)
      .map((info) => ({ address: parseAddress(info.local ?? ''), prefix: info.prefixlen ?? 32 })),
    ports: ports.map((port) => port.ifname),
  };
}

// A fixed, locally administered MAC: a bridge without one takes its lowest port's, which changes as pods come
// and go and leaves the pods' ARP entry for the gateway stale.
function bridgeMac(name: string): string {
  const bytes = createHash('sha256').update(`bosun bridge ${name}`).digest().subarray(0, 6);
  bytes[0] = ((bytes[0] ?? 0) & 0xfc) | 0x02;
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join(':');
}

/** Creates the bridge unless it exists (another agent may be creating it at the same moment), and brings it up. */
export async function ensureBridge(name: string, mtu: number): Promise<BridgeState> {
  let created = false;
  try {
    await runHostCommand(['ip', 'link', 'add', name, 'address', bridgeMac(name), 'mtu', String(mtu), 'type', 'bridge']);
    await runHostCommand(['ip', 'link', 'set', name, 'alias', BRIDGE_ALIAS]);
    created = true;
  } catch (error) {
    if (!isAlreadyThere(error)) throw error;
  }
  await runHostCommand(['ip', 'link', 'set', name, 'up']);
  // The pods' default route leads to the host; with the host's ip_forward on, the host would route their
  // traffic out of the machine (unmasqueraded, no iptables here to stop it). Forwarding off on this interface
  // keeps pod traffic on the machine whatever the host's setting (only writing all/forwarding resets it).
  // An existing bridge keeps its setting: the service proxies of the agents already on it turn forwarding on,
  // behind their nft forward chains that keep traffic on the bridge (src/node/proxy/).
  if (created) await writeFile(`/proc/sys/net/ipv4/conf/${name}/forwarding`, '0');
  const state = await inspectBridge(name);
  if (state === undefined) throw new HostCommandError(['ip', 'link', 'show', name], `the bridge ${name} vanished while it was set up`);
  return state;
}

/** Puts the node block's gateway on the bridge; false when that address is there already (another node's). */
export async function claimGateway(bridge: string, block: Ipv4Cidr, options: { replace: boolean }): Promise<boolean> {
  const gateway = `${formatAddress(gatewayOf(block))}/${block.prefix}`;
  try {
    await runHostCommand(['ip', 'addr', options.replace ? 'replace' : 'add', gateway, 'dev', bridge]);
    return true;
  } catch (error) {
    if (isAlreadyThere(error)) return false;
    throw error;
  }
}

export async function releaseGateway(bridge: string, block: Ipv4Cidr): Promise<void> {
  try {
    await runHostCommand(['ip', 'addr', 'del', `${formatAddress(gatewayOf(block))}/${block.prefix}`, 'dev', bridge]);
  } catch (error) {
    if (!isAlreadyGone(error)) throw error;
  }
}

/** Deletes the bridge if this provider made it and no node's gateway or pod is on it any more. */
export async function removeBridgeIfUnused(name: string): Promise<boolean> {
  const state = await inspectBridge(name);
  if (state === undefined || state.alias !== BRIDGE_ALIAS || state.addresses.length > 0 || state.ports.length > 0) return false;
  try {
    await runHostCommand(['ip', 'link', 'del', name]);
  } catch (error) {
    if (!isAlreadyGone(error)) throw error;
  }
  return true;
}
