// `bosun controllers`: runs the controller manager against any cluster a kubeconfig reaches (or in-cluster).
// Controller families plug in through a registry: each registers its controllers on the manager.
import { Command, InvalidArgumentError } from 'commander';
import type { LevelWithSilent } from 'pino';
import { createKubeClient } from '../../client/create-client.ts';
import { createLogger } from '../../runtime/logger.ts';
import { Manager } from '../../runtime/manager.ts';

/** Registers one family's controllers (informers, owns/watches) on the manager. */
export type ControllerFamily = (mgr: Manager) => void;
export type ControllerRegistry = Record<string, ControllerFamily>;

/** The families Bosun will ship; they are accepted by --controllers even before they are registered. */
export const knownFamilies = ['landscaper', 'workflows', 'chaos'] as const;

export interface ControllersOptions {
  kubeconfig?: string;
  /** Kubeconfig YAML itself (`bosun up` passes its own). */
  kubeconfigContent?: string;
  context?: string;
  namespace?: string;
  leaderElect: boolean;
  leaderElectionNamespace?: string;
  leaderElectionId: string;
  metricsPort: number;
  metricsBindAddress: string;
  controllers?: string[];
  logLevel: LevelWithSilent;
}

export class UnknownFamilyError extends Error {
  override readonly name = 'UnknownFamilyError' as const;
}

/** Builds and starts the manager with the selected families; the caller stops it. */
export async function runControllers(options: ControllersOptions, registry: ControllerRegistry): Promise<Manager> {
  const log = createLogger({ level: options.logLevel, name: 'bosun-controllers' });
  const selected = options.controllers ?? Object.keys(registry);
  for (const name of selected) {
    if (!(name in registry) && !(knownFamilies as readonly string[]).includes(name)) {
      throw new UnknownFamilyError(`unknown controller family "${name}" (known: ${[...new Set([...knownFamilies, ...Object.keys(registry)])].join(', ')})`);
    }
  }
  const client = createKubeClient({
    ...(options.kubeconfig !== undefined ? { kubeconfigPath: options.kubeconfig } : {}),
    ...(options.kubeconfigContent !== undefined ? { kubeconfig: options.kubeconfigContent } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    userAgent: 'bosun-controllers',
  });
  const mgr = new Manager({
    client,
    logger: log,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    metricsServer: { port: options.metricsPort, host: options.metricsBindAddress },
    leaderElection: options.leaderElect
      ? { name: options.leaderElectionId, ...(options.leaderElectionNamespace !== undefined ? { namespace: options.leaderElectionNamespace } : {}) }
      : false,
  });
  for (const name of selected) {
    const family = registry[name];
    if (family) family(mgr);
    else log.warn({ family: name }, 'controller family not implemented yet; skipped');
  }
  void mgr.done.finally(() => client.close());
  await mgr.start();
  log.info({ families: selected, leaderElect: options.leaderElect, metrics: mgr.metricsAddress }, 'bosun controllers started');
  return mgr;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('not a port number');
  return n;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function controllersCommand(registry: ControllerRegistry = {}): Command {
  return new Command('controllers')
    .description('run the Bosun controllers against a cluster (a kubeconfig, or in-cluster when none is found)')
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then in-cluster)')
    .option('--context <name>', 'kubeconfig context to use')
    .option('--namespace <ns>', 'only watch this namespace (default: all)')
    .option('--leader-elect', 'compete for a Lease so only one manager runs controllers', false)
    .option('--leader-election-namespace <ns>', 'namespace of the Lease (default: the context namespace)')
    .option('--leader-election-id <name>', 'name of the Lease', 'bosun-controllers')
    .option('--metrics-port <port>', 'port of /metrics, /healthz and /readyz (0 picks one)', port, 8080)
    .option('--metrics-bind-address <address>', 'address of the metrics server (0.0.0.0 to expose it)', '127.0.0.1')
    .option('--controllers <list>', `comma-separated families to run (${knownFamilies.join(', ')}); default all registered`, list)
    .option('--log-level <level>', 'trace, debug, info, warn, error or silent', 'info')
    .action(async (opts: ControllersOptions) => {
      let mgr: Manager;
      try {
        mgr = await runControllers(opts, registry);
      } catch (err) {
        console.error(`bosun controllers: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      }
      let stopping = false;
      const stop = (): void => {
        // A second signal means "now".
        if (stopping) process.exit(1);
        stopping = true;
        void mgr.stop();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      try {
        await mgr.done;
      } catch (err) {
        // Lost leadership: exit so the supervisor restarts us as a fresh candidate.
        console.error(`bosun controllers: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      }
    });
}
