// `bosun node`: one more node agent against any API server a kubeconfig reaches, so that several nodes can
// be simulated on one machine. `bosun up` runs one itself, on a thread of its own (node-thread/), with the same
// flags (node-flags.ts) and startNodeFromFlags.
import { homedir, hostname } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import type { Logger } from 'pino';
import { createKubeClient } from '../../client/create-client.ts';
import type { KubeClient } from '../../client/client.ts';
import { readKubeletPki, type KubeletPki } from '../../node/kubelet-api/kubelet-pki.ts';
import { startNode, type RunningNode } from '../../node/start-node.ts';
import { createLogger } from '../../runtime/logger.ts';
import { exitOnSignals } from '../shutdown.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import { serverVersion } from '../../apiserver/discovery/version.ts';
import { bosunVersion } from '../bosun-version.ts';
import { DEFAULT_CLUSTER_DNS, readImageMap, stoppedPodsMessage, withNodeFlags, type NodeFlags } from './node-flags.ts';

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
