// tc's argument lists exactly as upstream's network/tc.go builds them (buildCmd), without the binary: the
// planner composes them and the injector prefixes `nsenter --net=… tc`.

export type Protocol = 'tcp' | 'udp' | 'arp';
export type ConnState = '' | '+trk+new' | '+trk+est';

/** upstream's classid for packets of the targeted containers (types.InjectorCgroupClassID). */
export const INJECTOR_CGROUP_CLASSID = '0x00020002';

/** network.AllProtocols: tcp/udp/arp as given, anything else both tcp and udp. */
export function allProtocols(protocol: string): Protocol[] {
  const p = protocol.toLowerCase();
  return p === 'tcp' || p === 'udp' || p === 'arp' ? [p] : ['tcp', 'udp'];
}

/** network.NewConnState. */
export const connState = (s: string): ConnState => (s === 'new' ? '+trk+new' : s === 'est' ? '+trk+est' : '');

function buildCmd(module: string, iface: string, parent: string, protocol: string, priority: number, handle: string, kind: string, parameters: string): string[] {
  let cmd = `${module} add dev ${iface}`;
  if (protocol !== '') cmd += ` protocol ${protocol}`;
  if (priority !== 0) cmd += ` priority ${priority}`;
  cmd += parent === 'root' ? ' root' : ` parent ${parent}`;
  if (handle !== '') cmd += ` handle ${handle}`;
  cmd += ` ${kind}`;
  if (parameters !== '') cmd += ` ${parameters}`;
  return cmd.split(' ');
}

export function prio(iface: string, parent: string, handle: string, bands: number, priomap: readonly number[]): string[] {
  return buildCmd('qdisc', iface, parent, '', 0, handle, 'prio', `bands ${bands} priomap ${priomap.join(' ')}`);
}

export interface NetemParams {
  delayMs: number;
  jitterMs: number;
  drop: number;
  corrupt: number;
  duplicate: number;
}

export function netem(iface: string, parent: string, handle: string, p: NetemParams): string[] {
  const params: string[] = [];
  if (p.delayMs !== 0) params.push(`delay ${p.delayMs}ms ${p.jitterMs}ms`);
  if (p.drop !== 0) params.push(`loss ${p.drop}%`);
  if (p.duplicate !== 0) params.push(`duplicate ${p.duplicate}%`);
  if (p.corrupt !== 0) params.push(`corrupt ${p.corrupt}%`);
  return buildCmd('qdisc', iface, parent, '', 0, handle, 'netem', params.join(' '));
}

export function tbf(iface: string, parent: string, handle: string, bytesPerSec: number): string[] {
  return buildCmd('qdisc', iface, parent, '', 0, handle, 'tbf', `rate ${bytesPerSec} latency 50ms burst ${bytesPerSec}`);
}

/** The mark filter under the pod's prio (AddFlowerFilter). */
export function markFilter(iface: string, parent: string, handle: string, flowid: string): string[] {
  return buildCmd('filter', iface, parent, 'ip', 0, handle, 'flower', `flowid ${flowid}`);
}

export interface FlowerMatch {
  srcIP?: string;
  dstIP?: string;
  srcPort?: number;
  dstPort?: number;
  protocol: Protocol;
  connState?: ConnState;
  flowid: string;
}

/** AddFilter: a flower filter on 1:0 at the given priority; 0.0.0.0/0 is left out (matches anything). */
export function flowerFilter(iface: string, parent: string, priority: number, m: FlowerMatch): string[] {
  let params = '';
  let filterProtocol: string;
  if (m.protocol === 'arp') filterProtocol = 'arp';
  else {
    filterProtocol = 'ip';
    params += `ip_proto ${m.protocol} `;
  }
  if (m.srcIP !== undefined && m.srcIP !== '0.0.0.0/0') params += `src_ip ${m.srcIP} `;
  if (m.dstIP !== undefined && m.dstIP !== '0.0.0.0/0') params += `dst_ip ${m.dstIP} `;
  if (m.srcPort) params += `src_port ${m.srcPort} `;
  if (m.dstPort) params += `dst_port ${m.dstPort} `;
  if (m.connState) params += `ct_state ${m.connState} `;
  params += `flowid ${m.flowid}`;
  return buildCmd('filter', iface, parent, filterProtocol, priority, '', 'flower', params);
}

/** DeleteFilter: every filter of the link at this priority (upstream removes a service's filters this way). */
export const deleteFilter = (iface: string, priority: number): string[] => ['filter', 'delete', 'dev', iface, 'priority', String(priority)];

export const clearRootQdisc = (iface: string): string[] => ['qdisc', 'del', 'dev', iface, 'root'];

/** tc exits 2 when there is no qdisc to delete: already clean. */
export const NO_SUCH_QDISC_EXIT_CODE = 2;
