// The node flags `bosun up` and `bosun node` share, and what both print when their node stops. Apart from the
// agent itself (node.ts), so that `bosun up`, whose node runs on a thread of its own, does not load the agent on
// its main thread.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parse } from 'yaml';
import { DurationError, parseGoDuration } from '../../apimachinery/duration.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import type { ImageDefaults } from '../../node/agent/container-argv.ts';
import { defaultMaxParallelPodStarts, STARTS_PER_CORE } from '../../node/agent/pods/start-queue.ts';

/** The node flags `bosun up` and `bosun node` share. */
export interface NodeFlags {
  nodeNetwork: 'bridge' | 'host';
  bridge?: string;
  clusterCidr?: string;
  trustedNamespaces?: string[];
  allowRoot: boolean;
  imageMap?: string;
  nodeLeaseDurationSeconds?: number;
  nodeFailureRebootAfter?: number;
  containerRuntime: 'auto' | 'oci' | 'host';
  registryConfig?: string;
  maxParallelPodStarts?: number;
  /** Default: 10.96.0.10 for bosun node; bosun up uses its API server's kube-dns address. */
  clusterDns?: string[];
}

/** Every node flag, so that what is handed on (to `bosun up`'s node thread) is the node's flags and nothing else. */
const NODE_FLAG_KEYS: Record<keyof NodeFlags, true> = {
  nodeNetwork: true,
  bridge: true,
  clusterCidr: true,
  trustedNamespaces: true,
  allowRoot: true,
  imageMap: true,
  nodeLeaseDurationSeconds: true,
  nodeFailureRebootAfter: true,
  containerRuntime: true,
  registryConfig: true,
  maxParallelPodStarts: true,
  clusterDns: true,
};

/** The node flags of a command's options. */
export function nodeFlagsOf(options: NodeFlags): NodeFlags {
  return Object.fromEntries(Object.entries(options).filter(([key]) => Object.hasOwn(NODE_FLAG_KEYS, key))) as unknown as NodeFlags;
}

function list(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function addresses(value: string): string[] {
  const ips = list(value);
  const bad = ips.find((ip) => isIP(ip) === 0);
  if (bad !== undefined) throw new InvalidArgumentError(`${bad} is not an IP address`);
  return ips;
}

function duration(value: string): number {
  try {
    return parseGoDuration(value);
  } catch (error) {
    if (error instanceof DurationError) throw new InvalidArgumentError('not a duration such as 30s or 1m');
    throw error;
  }
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('not a positive integer');
  return n;
}

/** kube-dns's conventional address in the default service CIDR. */
export const DEFAULT_CLUSTER_DNS = '10.96.0.10';

/** Adds the shared node flags to a command. */
export function withNodeFlags(command: Command): Command {
  return command
    .addOption(new Option('--node-network <kind>', 'pod network: a namespace and address per pod on a bridge, or the host\'s network').choices(['bridge', 'host']).default('bridge'))
    .option('--bridge <name>', 'the bridge pods attach to (shared by the node agents of this machine)', 'bosun0')
    .option('--cluster-cidr <cidr>', 'the pods\' addresses; each node takes a /24 of it', '10.244.0.0/16')
    .option('--trusted-namespaces <list>', 'namespaces whose pods may be privileged or share the host\'s PIDs (default: kube-system,chaos-engineering)', list)
    .option('--allow-root', 'containers that set no runAsUser run as root (default: as nobody)', false)
    .option('--image-map <file>', 'YAML or JSON: image name → { entrypoint: [..], cmd: [..] }, for images without a command')
    .option('--node-lease-duration-seconds <n>', 'how long the node\'s Lease lasts without renewal (kubelet\'s flag; default 40)', positiveInteger)
    .option('--node-failure-reboot-after <duration>', 'how long a node crashed by a chaos node failure stays down before it comes back (default 30s)', duration)
    .option('--cluster-dns <ips>', 'the cluster DNS Service\'s address(es) pods\' resolv.conf names (kubelet\'s flag; default 10.96.0.10, with bosun up the tenth address of the service CIDR); the node serves cluster DNS on its bridge gateway', addresses)
    .addOption(new Option('--container-runtime <kind>', 'oci: pull images and run them with runc under conmon; host: the host sandbox only; auto: oci when runc, conmon and overlayfs work').choices(['auto', 'oci', 'host']).default('auto'))
    .option('--registry-config <file>', 'k3s\'s registries.yaml: registry mirrors, rewrites, credentials and TLS for image pulls')
    .option('--max-parallel-pod-starts <n>', `pod set-ups and container starts at once, oldest pod first (default ${defaultMaxParallelPodStarts()}: ${STARTS_PER_CORE} per core)`, positiveInteger);
}

/** What stopping a node did to its pods, for the last line bosun up and bosun node print. */
export function stoppedPodsMessage({ pods, kept }: { pods: number; kept: number }): string {
  const plural = (n: number) => `${n} pod${n === 1 ? '' : 's'}`;
  const stopped = `stopped ${plural(pods - kept)} and unmounted their volumes`;
  return kept === 0 ? stopped : `${stopped}; ${plural(kept)} with image containers keep running for the next start on this data dir`;
}

export class ImageMapError extends Error {
  override readonly name = 'ImageMapError' as const;
}

/** Reads --image-map: a map from image base name (busybox, myorg/tool) to its entrypoint and default args. */
export function readImageMap(file: string): Record<string, ImageDefaults> {
  let parsed: unknown;
  try {
    parsed = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ImageMapError(`--image-map ${file}: ${messageOf(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ImageMapError(`--image-map ${file}: expected a map of image name to { entrypoint, cmd }`);
  const strings = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');
  const map: Record<string, ImageDefaults> = {};
  for (const [image, entry] of Object.entries(parsed)) {
    const { entrypoint = [], cmd = [] } = (entry ?? {}) as Record<string, unknown>;
    if (!strings(entrypoint) || !strings(cmd)) throw new ImageMapError(`--image-map ${file}: ${image}: entrypoint and cmd must be lists of strings`);
    map[image] = { entrypoint: entrypoint as string[], cmd: cmd as string[] };
  }
  return map;
}
