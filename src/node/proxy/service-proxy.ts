// The node's service proxy: informers of Services and EndpointSlices, and on every change one `nft -f`
// transaction that replaces this node's table. Each node agent owns one table, named after its bridge and its
// pod block (`ip bosun-proxy-bosun0-10-244-0-0-24`), whose pod rules match only its own pods' source
// addresses: agents on one machine (`bosun node`, or clusters side by side) never rewrite each other's rules,
// and an agent that claims a block after a crash replaces what the dead one left. See docs/networking.md.
import type { Logger } from 'pino';
import type { Service } from '../../apimachinery/api/core-v1.ts';
import type { EndpointSlice } from '../../apimachinery/api/discovery-v1.ts';
import { endpointSlicesResource, servicesResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { Informer, messageOf, type BackoffOptions } from '../../runtime/index.ts';
import { HostCommandError, runHostCommand } from '../network/host-command.ts';
import { disableProxyRouting, enableProxyRouting } from './bridge-sysctls.ts';
import { RulesetApplier } from './ruleset-applier.ts';
import { renderRuleset } from './ruleset.ts';
import { servicePortRules, type ServicePortRule } from './service-port-rule.ts';

export interface ServiceProxyOptions {
  client: KubeClient;
  /** The pods' bridge and this node's block of it (BridgeNetwork's bridgeName and nodeCIDR). */
  bridge: string;
  podCIDR: string;
  logger: Logger;
  /** Of failed transactions' retries (default 500 ms doubling to 30 s). */
  backoff?: BackoffOptions;
}

export interface ServiceProxy {
  /** The nft table this proxy owns. */
  readonly table: string;
  /** Resolves once the rules for everything the informers hold so far are applied (or failed and wait for a retry). */
  settled(): Promise<void>;
  /** Resolves once a transaction has applied rules that pass check (at once if the applied ones do). */
  whenApplied(check: (rules: readonly ServicePortRule[]) => boolean): Promise<void>;
  /** Stops watching and deletes the table; the bridge's routing settings go off with the last proxy on it. */
  stop(): Promise<void>;
}

const TABLE_PREFIX = 'bosun-proxy';

export function proxyTableName(bridge: string, podCIDR: string): string {
  return `${TABLE_PREFIX}-${bridge}-${podCIDR.replace(/[./]/g, '-')}`;
}

async function runNft(script: string): Promise<void> {
  try {
    await runHostCommand(['nft', '-f', '-'], script);
  } catch (error) {
    if (error instanceof HostCommandError && error.spawnCode === 'ENOENT') {
      throw new Error('the service proxy needs nft on the host: install the Debian package nftables (Services are not reachable until then)', { cause: error });
    }
    throw error;
  }
}

/** The proxy tables of other agents on the same bridge. */
async function otherProxyTables(bridge: string, own: string): Promise<string[]> {
  const listing = await runHostCommand(['nft', 'list', 'tables', 'ip']);
  return listing
    .split('\n')
    .map((line) => /^table ip (\S+)$/.exec(line.trim())?.[1])
    .filter((name): name is string => name !== undefined && name !== own && name.startsWith(`${TABLE_PREFIX}-${bridge}-`));
}

export async function startServiceProxy(options: ServiceProxyOptions): Promise<ServiceProxy> {
  const { client, bridge, podCIDR, logger } = options;
  const table = proxyTableName(bridge, podCIDR);
  const onError = (what: string) => (err: unknown) => logger.warn({ err }, `service proxy: watching ${what} failed`);
  const services = new Informer<Service>({ client, resource: servicesResource, onError: onError('Services') });
  const slices = new Informer<EndpointSlice>({ client, resource: endpointSlicesResource, onError: onError('EndpointSlices') });
  let synced = false;
  let rendered: ServicePortRule[] = [];
  let applied: ServicePortRule[] | undefined;
  const waiters = new Set<{ check: (rules: readonly ServicePortRule[]) => boolean; resolve: () => void }>();
  const applier = new RulesetApplier({
    render() {
      rendered = servicePortRules(services.list(), slices.list());
      return renderRuleset({ table, bridge, podCIDR, services: rendered });
    },
    async apply(script) {
      const rules = rendered;
      await runNft(script);
      applied = rules;
      for (const waiter of waiters) if (waiter.check(rules)) waiter.resolve();
      // Re-asserted every time: another agent starting on the bridge resets forwarding to off.
      await enableProxyRouting(bridge);
    },
    onFailure: (err, info) =>
      logger.error({ err, failures: info.failures, retryInMs: info.retryInMs }, `service proxy: nft could not apply table ip ${table}: ${messageOf(err)}`),
    onApplied: ({ failuresBefore }) => {
      if (failuresBefore > 0) logger.info({ failuresBefore }, `service proxy: table ip ${table} applied again`);
    },
    ...(options.backoff !== undefined ? { backoff: options.backoff } : {}),
  });
  const changed = () => {
    if (synced) applier.request();
  };
  for (const informer of [services, slices] as Informer[]) informer.addEventHandler({ onAdd: changed, onUpdate: changed, onDelete: changed });
  services.start();
  slices.start();
  await Promise.all([services.waitForSync(), slices.waitForSync()]);
  // The first transaction replaces whatever table of this name a previous agent left.
  synced = true;
  applier.request();
  await applier.settled();
  return {
    table,
    settled: () => applier.settled(),
    whenApplied(check) {
      if (applied !== undefined && check(applied)) return Promise.resolve();
      return new Promise((resolve) => {
        const waiter = { check, resolve: () => (waiters.delete(waiter), resolve()) };
        waiters.add(waiter);
      });
    },
    async stop() {
      await Promise.all([services.stop(), slices.stop()]);
      await applier.stop();
      try {
        await runNft(`table ip ${table} {\n}\ndelete table ip ${table}\n`);
        // Forwarding stays on while another proxy's table guards the bridge; the bridge may be gone already.
        if ((await otherProxyTables(bridge, table)).length === 0) await disableProxyRouting(bridge).catch(() => undefined);
      } catch (err) {
        logger.warn({ err }, `service proxy: cannot delete table ip ${table}`);
      }
    },
  };
}
