// `bosun node`: one more node agent against any API server a kubeconfig reaches, so that several nodes can
// be simulated on one machine. `bosun up` runs one itself (startNodeFromFlags); the flags are shared.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { homedir, hostname } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Logger } from 'pino';
import { parse } from 'yaml';
import { DurationError, parseGoDuration } from '../../apimachinery/duration.ts';
import { createKubeClient } from '../../client/create-client.ts';
import type { KubeClient } from '../../client/client.ts';
import type { ImageDefaults } from '../../node/agent/container-argv.ts';
import { readKubeletPki, type KubeletPki } from '../../node/kubelet-api/kubelet-pki.ts';
import { startNode, type RunningNode } from '../../node/start-node.ts';
import { createLogger } from '../../runtime/logger.ts';
import { exitOnSignals } from '../shutdown.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import { serverVersion } from '../../apiserver/discovery/version.ts';
import { bosunVersion } from '../bosun-version.ts';
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

/** Adds the shared node flags to a command. */
/** kube-dns's conventional address in the default service CIDR. */
export const DEFAULT_CLUSTER_DNS = '10.96.0.10';

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

/** Starts a node agent with the shared flags. */
export function startNodeFromFlags(flags: NodeFlags, node: { client: KubeClient; nodeName: string; dataDir: string; hiddenDirs?: string[]; kubeletPki: KubeletPki; logger: Logger }): Promise<RunningNode> {
  return startNode({
    ...node,
    versions: { kubelet: serverVersion.gitVersion, runtime: `bosun://${bosunVersion}` },
    network: flags.nodeNetwork,
    allowRootByDefault: flags.allowRoot,
    clusterDNS: flags.clusterDns ?? [DEFAULT_CLUSTER_DNS],
    ...(flags.bridge !== undefined ? { bridgeName: flags.bridge } : {}),
    ...(flags.clusterCidr !== undefined ? { clusterCIDR: flags.clusterCidr } : {}),
    ...(flags.trustedNamespaces !== undefined ? { trustedNamespaces: flags.trustedNamespaces } : {}),
    ...(flags.imageMap !== undefined ? { imageMap: readImageMap(flags.imageMap) } : {}),
    ...(flags.nodeLeaseDurationSeconds !== undefined ? { leaseDurationSeconds: flags.nodeLeaseDurationSeconds } : {}),
    ...(flags.nodeFailureRebootAfter !== undefined ? { nodeFailureRebootAfterMs: flags.nodeFailureRebootAfter } : {}),
    containerRuntime: flags.containerRuntime,
    ...(flags.registryConfig !== undefined ? { registryConfig: resolve(flags.registryConfig) } : {}),
    ...(flags.maxParallelPodStarts !== undefined ? { maxParallelPodStarts: flags.maxParallelPodStarts } : {}),
  });
}

interface NodeCommandOptions extends NodeFlags {
  kubeconfig?: string;
  context?: string;
  name: string;
  dataDir?: string;
  kubeletPki?: string;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

export function nodeCommand(): Command {
  return withNodeFlags(
    new Command('node')
      .description('run a node agent: register a Node and run the pods bound to it as sandboxed processes')
      .option('--kubeconfig <file>', 'kubeconfig of the API server (default: $KUBECONFIG, ~/.kube/config)')
      .option('--context <name>', 'kubeconfig context to use')
      .option('--name <name>', 'the Node\'s name', hostname().toLowerCase())
      .option('--data-dir <dir>', 'the node\'s pods, logs and network state (default: .bosun/nodes/<name>)')
      .option('--kubelet-pki <dir>', 'the kubelet certificates `bosun up` made (the CA, the serving certificate); default: pki/kubelet beside the kubeconfig')
      .option('--log-level <level>', 'trace, debug, info, warn, error or silent', 'info'),
  ).action(async (options: NodeCommandOptions) => {
    const logger = createLogger({ level: options.logLevel, name: 'bosun-node' });
    const fail = (message: string): never => {
      console.error(`bosun node: ${message}`);
      process.exit(1);
    };
    let running: RunningNode | undefined;
    try {
      const source = { ...(options.kubeconfig !== undefined ? { kubeconfigPath: options.kubeconfig } : {}), ...(options.context !== undefined ? { context: options.context } : {}) };
      // bosun up keeps them beside the kubeconfig it writes, in its data dir.
      const kubeconfigFile = options.kubeconfig ?? process.env['KUBECONFIG']?.split(delimiter)[0] ?? join(homedir(), '.kube', 'config');
      const pkiDir = resolve(options.kubeletPki ?? join(dirname(kubeconfigFile), 'pki', 'kubelet'));
      const kubeletPki = await readKubeletPki(pkiDir).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        return fail(`no kubelet certificates in ${pkiDir} (bosun up makes them in <data-dir>/pki/kubelet): give their directory with --kubelet-pki`);
      });
      const client = createKubeClient({ ...source, userAgent: 'bosun-node' });
      running = await startNodeFromFlags(options, { client, nodeName: options.name, dataDir: resolve(options.dataDir ?? `.bosun/nodes/${options.name}`), kubeletPki, logger });
    } catch (error) {
      fail(messageOf(error));
    }
    const node = running!;
    console.log(`bosun node is ready: node ${node.nodeName}, pod network ${node.podNetwork}, kubelet API ${node.kubeletUrl}`);
    exitOnSignals('bosun node', 'stopping its pods', async () => {
      // Image containers run on under conmon: the next bosun node on this data dir adopts them.
      console.log(`bosun node: ${stoppedPodsMessage(await node.stop({ killPods: true, keepImageContainers: true }))}`);
    });
  });
}
