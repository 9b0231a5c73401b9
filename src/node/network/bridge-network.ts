// The bridge pod network: each pod gets a network namespace, a veth pair on the node's bridge and an address
// from the node's block of the cluster CIDR. See docs/node.md, "Pod networking".
import { mkdir, readdir, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PodIdentity, PodNetworkAttachment, PodNetworkProvider } from '../agent/pod-network.ts';
import { AddressPool } from './address-pool.ts';
import { claimGateway, ensureBridge, releaseGateway, removeBridgeIfUnused, type BridgeState } from './bridge.ts';
import { PodNetworkConfigError, PodNetworkError, PodNetworkUnavailableError } from './errors.ts';
import { HostCommandError } from './host-command.ts';
import { containsAddress, containsCidr, formatAddress, formatCidr, gatewayOf, parseAddress, parseCidr, subnets, type Ipv4Cidr } from './ipv4.ts';
import { PerPodQueue } from './per-pod-queue.ts';
import { hostEndOf, isNamespaceName, isSafeUid, mountedNamespaces, namespacePath, PodPlumber, type PodPlumbing } from './pod-namespace.ts';
import { DEFAULT_SPARE_NAMESPACES, isSpareName, newSpareName, SpareNamespaces, type SpareNamespace } from './spare-namespaces.ts';
import { StateFile, readNetworkState, type NetworkState } from './state-file.ts';
import { tracePodStart } from '../pod-start-trace.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export interface BridgeNetworkOptions {
  /** Where the state file and the pods' namespace files live: one directory per node agent. */
  stateDir: string;
  /** Default bosun0. Agents on one machine share it. */
  bridgeName?: string;
  /** Default 10.244.0.0/16. The pods' mask: every pod on the bridge reaches every other directly. */
  clusterCIDR?: string;
  /** This node's block. Default: the block remembered in the state directory, else the first block no other node on the bridge has claimed. */
  nodeCIDR?: string;
  /** The size of a node block when one is claimed, as kube-controller-manager's --node-cidr-mask-size. Default 24. */
  nodeCIDRMaskSize?: number;
  /** Of the bridge and every veth. Default 1500: pod traffic never leaves the machine, so the uplink's MTU does not matter. */
  mtu?: number;
  /** How many namespaces with their veth and address are kept ready for the next pods. Default 2; 0 makes each pod its own. */
  spareNamespaces?: number;
}

const DEFAULTS = { bridgeName: 'bosun0', clusterCIDR: '10.244.0.0/16', nodeCIDRMaskSize: 24, mtu: 1500, spareNamespaces: DEFAULT_SPARE_NAMESPACES };

const INTERFACE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,14}$/;

interface Settings {
  bridgeName: string;
  cluster: Ipv4Cidr;
  nodeMaskSize: number;
  explicitNode: Ipv4Cidr | undefined;
  mtu: number;
  spareNamespaces: number;
}

function validate(options: BridgeNetworkOptions): Settings {
  const bridgeName = options.bridgeName ?? DEFAULTS.bridgeName;
  if (!INTERFACE_NAME.test(bridgeName)) throw new PodNetworkConfigError(`"${bridgeName}" is not a usable interface name (1-15 letters, digits, '_', '-', '.')`);
  const cluster = parseCidr(options.clusterCIDR ?? DEFAULTS.clusterCIDR);
  const nodeMaskSize = options.nodeCIDRMaskSize ?? DEFAULTS.nodeCIDRMaskSize;
  if (!Number.isInteger(nodeMaskSize) || nodeMaskSize < cluster.prefix || nodeMaskSize > 30) {
    throw new PodNetworkConfigError(`the node CIDR mask size must be an integer from ${cluster.prefix} (the cluster's) to 30, not ${nodeMaskSize}`);
  }
  const explicitNode = options.nodeCIDR === undefined ? undefined : parseCidr(options.nodeCIDR);
  if (explicitNode && (!containsCidr(cluster, explicitNode) || explicitNode.prefix > 30)) {
    throw new PodNetworkConfigError(`the node CIDR ${options.nodeCIDR} must be a block of at most /30 inside the cluster CIDR ${formatCidr(cluster)}`);
  }
  const mtu = options.mtu ?? DEFAULTS.mtu;
  if (!Number.isInteger(mtu) || mtu < 576 || mtu > 65535) throw new PodNetworkConfigError(`the pod MTU must be an integer from 576 to 65535, not ${mtu}`);
  const spareNamespaces = options.spareNamespaces ?? DEFAULTS.spareNamespaces;
  if (!Number.isInteger(spareNamespaces) || spareNamespaces < 0 || spareNamespaces > 16) {
    throw new PodNetworkConfigError(`the number of spare pod namespaces must be an integer from 0 to 16, not ${spareNamespaces}`);
  }
  return { bridgeName, cluster, nodeMaskSize, explicitNode, mtu, spareNamespaces };
}

function unavailable(bridge: string, error: unknown): PodNetworkUnavailableError {
  const fallback = 'until then the agent can only give pods the host network';
  if (error instanceof HostCommandError && error.spawnCode === 'ENOENT') {
    return new PodNetworkUnavailableError(`the pod network needs ${error.argv[0]} on the host: install the Debian packages iproute2 and util-linux; ${fallback}`);
  }
  const message = messageOf(error);
  if (/Operation not permitted|EACCES|EPERM|permission denied/i.test(message)) {
    return new PodNetworkUnavailableError(
      `cannot set up the pod bridge ${bridge} (${message}): run the node agent as root (it needs CAP_NET_ADMIN and CAP_SYS_ADMIN for namespaces and mounts); ${fallback}`,
    );
  }
  return new PodNetworkUnavailableError(`cannot set up the pod bridge ${bridge}: ${message}; ${fallback}`);
}

/** The first block of the cluster CIDR whose gateway this agent could add to the bridge. */
async function claimFreeBlock(settings: Settings, bridge: BridgeState): Promise<Ipv4Cidr> {
  for (const block of subnets(settings.cluster, settings.nodeMaskSize)) {
    if (bridge.addresses.some((taken) => containsAddress(block, taken.address))) continue;
    if (await claimGateway(settings.bridgeName, block, { replace: false })) return block;
  }
  throw new PodNetworkUnavailableError(
    `every /${settings.nodeMaskSize} block of ${formatCidr(settings.cluster)} is claimed by a node on ${settings.bridgeName}; give this agent another cluster CIDR or tear down stopped agents' networks`,
  );
}

/** An address from the state file, or undefined when a hand-edited file holds something else. */
function parseRememberedAddress(text: unknown): number | undefined {
  try {
    return typeof text === 'string' ? parseAddress(text) : undefined;
  } catch {
    return undefined;
  }
}

export class BridgeNetwork implements PodNetworkProvider {
  readonly bridgeName: string;
  readonly clusterCIDR: string;
  /** This node's block (Node.spec.podCIDR). */
  readonly nodeCIDR: string;
  /** The node's address on the bridge: what pods reach the host at. */
  readonly gateway: string;
  private readonly namespaceDir: string;
  private readonly stateFile: StateFile;
  /** The addresses of the pods (by uid) and of the spare namespaces (by name). */
  private readonly addresses: AddressPool;
  /** uid → namespace/name, for the state file's readers and error messages. */
  private readonly pods = new Map<string, string>();
  /** uid → the name of its namespace file, where that is not the uid (a spare the pod took). */
  private readonly namespaceNames = new Map<string, string>();
  /** The pods whose plumbing is complete. */
  private readonly ready = new Set<string>();
  private readonly queue = new PerPodQueue();
  private readonly plumber = new PodPlumber();
  private readonly spares: SpareNamespaces;
  private tornDown = false;

  private constructor(
    stateDir: string,
    private readonly settings: Settings,
    private readonly block: Ipv4Cidr,
    lastAllocated: number | undefined,
  ) {
    this.bridgeName = settings.bridgeName;
    this.clusterCIDR = formatCidr(settings.cluster);
    this.nodeCIDR = formatCidr(block);
    this.gateway = formatAddress(gatewayOf(block));
    this.namespaceDir = join(stateDir, 'netns');
    this.addresses = new AddressPool(block, lastAllocated);
    this.stateFile = new StateFile(join(stateDir, 'network.json'), () => this.snapshot());
    this.spares = new SpareNamespaces(
      settings.spareNamespaces,
      () => this.makeSpare(),
      (spare) => this.removeNamespace(spare.name).then(() => this.addresses.release(spare.name)),
    );
  }

  /**
   * Sets up (or finds again) the bridge, this node's block and the pods attached before a restart. Rejects with
   * PodNetworkUnavailableError when the host does not allow it, PodNetworkConfigError for bad options.
   */
  static async open(options: BridgeNetworkOptions): Promise<BridgeNetwork> {
    const settings = validate(options);
    await mkdir(join(options.stateDir, 'netns'), { recursive: true, mode: 0o700 });
    // mountinfo names the namespace files by their real path.
    const stateDir = await realpath(options.stateDir);
    const remembered = await readNetworkState(join(stateDir, 'network.json'));
    const sameNetwork =
      remembered !== undefined &&
      remembered.bridge === settings.bridgeName &&
      remembered.clusterCIDR === formatCidr(settings.cluster) &&
      (settings.explicitNode === undefined || remembered.nodeCIDR === formatCidr(settings.explicitNode));
    if (remembered && !sameNetwork && Object.keys(remembered.pods).length > 0) {
      throw new PodNetworkConfigError(
        `${stateDir} holds ${Object.keys(remembered.pods).length} pods attached to ${remembered.bridge} with node CIDR ${remembered.nodeCIDR} of ${remembered.clusterCIDR}; ` +
          'start the agent with those settings, or tear that network down first',
      );
    }
    let bridge: BridgeState;
    let block: Ipv4Cidr;
    try {
      bridge = await ensureBridge(settings.bridgeName, settings.mtu);
      if (bridge.kind !== 'bridge') {
        throw new PodNetworkUnavailableError(`${settings.bridgeName} exists and is a ${bridge.kind ?? 'plain'} interface, not a bridge; choose another bridge name`);
      }
      const known = settings.explicitNode ?? (sameNetwork ? parseCidr(remembered.nodeCIDR) : undefined);
      if (known) await claimGateway(settings.bridgeName, known, { replace: true });
      block = known ?? (await claimFreeBlock(settings, bridge));
    } catch (error) {
      if (error instanceof PodNetworkUnavailableError || error instanceof PodNetworkConfigError) throw error;
      throw unavailable(settings.bridgeName, error);
    }
    const lastAllocated = sameNetwork ? parseRememberedAddress(remembered.lastAllocated) : undefined;
    const network = new BridgeNetwork(stateDir, settings, block, lastAllocated);
    await network.recover(sameNetwork ? remembered : undefined, new Set(bridge.ports));
    network.spares.fill();
    return network;
  }

  attach(pod: PodIdentity, addressed?: (attachment: PodNetworkAttachment) => void): Promise<PodNetworkAttachment> {
    if (this.tornDown) return Promise.reject(new PodNetworkError(`the pod network on ${this.bridgeName} was torn down`));
    if (!isSafeUid(pod.uid)) return Promise.reject(new PodNetworkError(`pod uid "${pod.uid}" cannot name a network namespace file`));
    return this.queue.run(pod.uid, () => this.attachNow(pod, addressed).finally(() => this.spares.fill()));
  }

  private async attachNow(pod: PodIdentity, addressed?: (attachment: PodNetworkAttachment) => void): Promise<PodNetworkAttachment> {
    const { uid } = pod;
    const held = this.addresses.addressOf(uid);
    if (held !== undefined && this.ready.has(uid)) return this.attachment(uid, held);
    const spare = held === undefined ? this.spares.take() : undefined;
    if (spare) return this.takeSpare(pod, spare, addressed);
    const address = this.addresses.allocate(uid);
    this.pods.set(uid, `${pod.namespace}/${pod.name}`);
    addressed?.(this.attachment(uid, address));
    const plumbing = this.plumbing(this.namespaceName(uid), address);
    try {
      // The allocation is saved while the namespace is made, and both are done before attach returns: a
      // crash in between leaves a namespace or an address that the next open removes, never a pod whose
      // address could be handed out again.
      const steps = await Promise.allSettled([
        this.stateFile.save().then(() => tracePodStart(uid, 'network-saved')),
        (async () => {
          // An earlier attach that failed and could not clean up left its address reserved and maybe its pieces.
          if (held !== undefined) await this.plumber.remove(plumbing.path, plumbing.veth);
          await this.plumber.create(plumbing);
          tracePodStart(uid, 'network-plumbed');
        })(),
      ]);
      for (const step of steps) if (step.status === 'rejected') throw step.reason;
    } catch (error) {
      await this.release(uid).catch(() => undefined);
      throw new PodNetworkError(`cannot attach pod ${pod.namespace}/${pod.name} to ${this.bridgeName}: ${(error as Error).message}`);
    }
    this.ready.add(uid);
    return this.attachment(uid, address);
  }

  /** The pod gets a spare as it is: its namespace file and veth keep their names, the state file maps them. */
  private async takeSpare(pod: PodIdentity, spare: SpareNamespace, addressed?: (attachment: PodNetworkAttachment) => void): Promise<PodNetworkAttachment> {
    const { uid } = pod;
    this.addresses.reassign(spare.name, uid);
    this.namespaceNames.set(uid, spare.name);
    this.pods.set(uid, `${pod.namespace}/${pod.name}`);
    const attachment = this.attachment(uid, spare.address);
    addressed?.(attachment);
    try {
      // Saved before attach returns, as for a namespace made for the pod: a crash before it leaves a spare,
      // which the next open removes, never a pod whose namespace it would take for a leftover.
      await this.stateFile.save();
    } catch (error) {
      await this.release(uid).catch(() => undefined);
      throw new PodNetworkError(`cannot attach pod ${pod.namespace}/${pod.name} to ${this.bridgeName}: ${(error as Error).message}`);
    }
    this.ready.add(uid);
    return attachment;
  }

  private async makeSpare(): Promise<SpareNamespace> {
    const name = newSpareName();
    const address = this.addresses.allocate(name);
    try {
      await this.plumber.create(this.plumbing(name, address));
    } catch (error) {
      // What is left of it goes now; if that fails too, the next open finds it unclaimed and removes it.
      await this.removeNamespace(name).catch(() => undefined);
      this.addresses.release(name);
      throw error;
    }
    return { name, address };
  }

  /** Resolves once no spare namespace is being made (the host shows a spare before the pool can hand it out). */
  sparesSettled(): Promise<void> {
    return this.spares.settled();
  }

  /**
   * The agent stops and its pods keep running (the next agent adopts them): the spares go, with their addresses,
   * and no more are made; the pods' namespaces stay. Pods that still attach make their own.
   */
  async dropSpares(): Promise<void> {
    await this.spares.close();
  }

  detach(podUid: string): Promise<void> {
    if (!isSafeUid(podUid)) return Promise.resolve();
    return this.queue.run(podUid, async () => {
      if (this.addresses.addressOf(podUid) === undefined) return;
      try {
        await this.release(podUid);
      } catch (error) {
        throw new PodNetworkError(`cannot detach pod ${this.pods.get(podUid) ?? podUid} from ${this.bridgeName}: ${(error as Error).message}`);
      }
    });
  }

  /** The pods holding an address, a failed attach that could not clean up included (detach retries it). */
  attached(): Promise<string[]> {
    return Promise.resolve(this.podAddresses().map(([uid]) => uid));
  }

  /** The addresses held by pods, not by spares. */
  private podAddresses(): [uid: string, address: number][] {
    return this.addresses.entries().filter(([holder]) => !isSpareName(holder));
  }

  /**
   * Removes every pod's namespace and veth, this node's gateway, the state file, and the bridge when this provider
   * family created it and no other node uses it. The provider attaches nothing afterwards.
   */
  async teardown(): Promise<void> {
    this.tornDown = true;
    // The spares first: one being made is not yet in mountinfo's list below, and close waits for it.
    const [spares] = await Promise.allSettled([this.spares.close()]);
    const pods = this.podAddresses().map(([uid]) => uid);
    const podNamespaces = new Set(pods.map((uid) => this.namespaceName(uid)));
    const unclaimed = [...(await mountedNamespaces(this.namespaceDir))].filter((name) => !podNamespaces.has(name) && !name.includes('/'));
    const results = await Promise.allSettled([
      ...pods.map((uid) =>
        this.queue.run(uid, async () => {
          await this.removeNamespace(this.namespaceName(uid));
          this.addresses.release(uid);
          this.ready.delete(uid);
        }),
      ),
      ...unclaimed.map((name) => this.removeNamespace(name)),
    ]);
    const failure = [spares, ...results].find((result): result is PromiseRejectedResult => result?.status === 'rejected');
    if (failure) throw new PodNetworkError(`cannot tear down the pod network on ${this.bridgeName}: ${(failure.reason as Error).message}`);
    await releaseGateway(this.bridgeName, this.block);
    await removeBridgeIfUnused(this.bridgeName);
    await this.stateFile.remove();
    await rm(this.namespaceDir, { recursive: true, force: true });
  }

  private plumbing(name: string, address: number): PodPlumbing {
    return {
      path: this.namespacePath(name),
      veth: hostEndOf(name),
      addressWithPrefix: `${formatAddress(address)}/${this.settings.cluster.prefix}`,
      gateway: this.gateway,
      mtu: this.settings.mtu,
      bridge: this.bridgeName,
    };
  }

  private namespaceName(uid: string): string {
    return this.namespaceNames.get(uid) ?? uid;
  }

  private namespacePath(name: string): string {
    return namespacePath(this.namespaceDir, name);
  }

  /** Removes what exists of a namespace file's namespace and its veth pair. */
  private removeNamespace(name: string): Promise<void> {
    return this.plumber.remove(this.namespacePath(name), hostEndOf(name));
  }

  private attachment(uid: string, address: number): PodNetworkAttachment {
    return { podIP: formatAddress(address), network: { kind: 'namespace', path: this.namespacePath(this.namespaceName(uid)) } };
  }

  /** Removes a pod's plumbing, then frees its address; an error keeps the address reserved. */
  private async release(uid: string): Promise<void> {
    this.ready.delete(uid);
    await this.removeNamespace(this.namespaceName(uid));
    this.addresses.release(uid);
    this.pods.delete(uid);
    this.namespaceNames.delete(uid);
    await this.stateFile.save();
  }

  /**
   * After a restart: a remembered pod whose namespace is mounted and whose veth is on the bridge is attached;
   * whatever else is there (an attach or a detach cut short, the spares of an agent that did not stop cleanly)
   * is removed and its address freed.
   */
  private async recover(remembered: NetworkState | undefined, ports: Set<string>): Promise<void> {
    const mounted = await mountedNamespaces(this.namespaceDir);
    const kept = new Set<string>();
    const leftovers = new Set<string>();
    for (const [uid, record] of Object.entries(remembered?.pods ?? {})) {
      const address = parseRememberedAddress(record.address);
      const name = record.namespace ?? uid;
      if (!isSafeUid(uid) || !isNamespaceName(name)) continue;
      const complete = mounted.has(name) && ports.has(hostEndOf(name));
      if (complete && address !== undefined && this.addresses.restore(uid, address)) {
        this.pods.set(uid, record.pod);
        if (name !== uid) this.namespaceNames.set(uid, name);
        this.ready.add(uid);
        kept.add(name);
      } else {
        leftovers.add(name);
      }
    }
    for (const name of mounted) if (!kept.has(name) && !name.includes('/')) leftovers.add(name);
    // Files whose bind mount never happened.
    for (const name of await readdir(this.namespaceDir)) if (!mounted.has(name)) leftovers.add(name);
    await Promise.all([...leftovers].map((name) => this.removeNamespace(name)));
    await this.stateFile.save();
  }

  private snapshot(): NetworkState {
    const last = this.addresses.lastHandedOut;
    return {
      version: 1,
      bridge: this.bridgeName,
      clusterCIDR: this.clusterCIDR,
      nodeCIDR: this.nodeCIDR,
      ...(last === undefined ? {} : { lastAllocated: formatAddress(last) }),
      pods: Object.fromEntries(
        this.podAddresses().map(([uid, address]) => {
          const namespace = this.namespaceNames.get(uid);
          return [uid, { address: formatAddress(address), pod: this.pods.get(uid) ?? '', ...(namespace === undefined ? {} : { namespace }) }];
        }),
      ),
    };
  }
}
