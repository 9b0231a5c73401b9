// network-disruption: drops, delays, duplicates, corrupts or limits the target's traffic inside its network
// namespace; upstream's injector/network_disruption.go, network/tc.go and network/iptables.go. Where the kernel
// has the qdiscs, upstream's tc tree (network/plan.ts: prio, netem, tbf, flower filters, iptables marks); where
// it has not, an nftables table `inet bosun-chaos` (network/nft-ruleset.ts) drops and polices the same packets,
// and what only qdiscs can do (delay, corrupt, duplicate) is refused naming the missing kernel features
// (network/backend.ts makes the choice). Commands run through ctx.writes (`nsenter --net=… tc|nft …`), so
// dry-run runs everything but them, and only warns about what is missing (the pod gets Ready).
// Host names are resolved again every --host-resolve-interval on nftables, the table replaced when their
// addresses change (upstream updates its tc filters the same way); the tc plan resolves them once.
// Service filters (--services) follow their Service and its ready endpoints through the node agent's runtime
// API (network/service-watch.ts; the injector has no API identity): on nftables the table is replaced in one
// transaction on every change, with tc the services' flower filters are added anew and the old ones deleted.
// Not ported: the eBPF HTTP filters (--method/--path): they fail.
import { posix } from 'node:path';
import type { Injector, InjectorContext, KindDefinition } from '../injector.ts';
import { FeatureUnavailableError, hasTool, type MissingFeature } from './feature-probes.ts';
import { chooseBackend } from './network/backend.ts';
import { cgroupRoot, procPath } from './mounts.ts';
import { deleteRules, insertRule } from './network/iptables-in-netns.ts';
import type { IptablesRule } from './network/iptables-rules.ts';
import { deleteTableScript, NETWORK_TABLE, renderNetworkRuleset, type NftNetworkInput } from './network/nft-ruleset.ts';
import { emptySpec, hasHttpFilters, networkDisruptionSpec, type NetworkDisruptionSpec } from './network/network-spec.ts';
import { planNetworkDisruption, serviceFilterCommands, type ResolvedHost } from './network/plan.ts';
import { ServiceDestinations, type WatchService } from './network/service-watch.ts';
import { resolveHosts, systemResolver, type HostResolver } from './network/resolve-hosts.ts';
import { clearRootQdisc, deleteFilter, INJECTOR_CGROUP_CLASSID, NO_SUCH_QDISC_EXIT_CODE } from './network/tc-commands.ts';
import { defaultRoutes, inNetns, listLinks } from './network/target-netns.ts';
import { parseGoDuration, sleep } from '../durations.ts';
import { boolValue, stringValue } from './option-values.ts';
import { NODE_RUNTIME_SOCKET_ENV } from '../../../client/node-runtime/protocol.ts';

export class NetworkDisruptionError extends Error {
  override readonly name = 'NetworkDisruptionError' as const;
}

export interface NetworkDisruptionDeps {
  resolve?: HostResolver;
  env?: NodeJS.ProcessEnv;
  /** The node agent's Service watch; without it services filters are refused. */
  watchService?: WatchService;
}

class NetworkDisruptionInjector implements Injector {
  readonly kind = 'network-disruption' as const;
  private injectedRules: IptablesRule[] = [];
  private netClsDir: string | undefined;
  /** This injector wrote the nftables table (or, restarted, may have): its clean deletes it. */
  private nftTableOwner = false;
  /** The loop that resolves host names again (nft), stopped and awaited by clean before it deletes the table. */
  private reresolution: { stop: AbortController; done: Promise<void> } | undefined;
  /** The services filters' watches, stopped and awaited by clean before it deletes anything. */
  private services: ServiceDestinations | undefined;
  /** nft: what the table is rendered from and the script last written; changes are written one at a time. */
  private table: { pid: number; input: NftNetworkInput; written: string; writing: Promise<void> } | undefined;
  /** tc: the services' filters now (their priorities), and the next priority to take. */
  private tcServices: { pid: number; ifaces: string[]; priorities: number[]; next: number; writing: Promise<void> } | undefined;

  constructor(
    private readonly ctx: InjectorContext,
    private readonly spec: () => NetworkDisruptionSpec,
    private readonly options: { onInit: boolean; disruptionUid: string; resolve: HostResolver; env: NodeJS.ProcessEnv; resolveIntervalMs: number; watchService: WatchService | undefined },
  ) {}

  private get pid(): number {
    const { target } = this.ctx;
    if (target.level === 'node') return target.nodePid ?? 1;
    if (target.container?.pid === undefined) throw new NetworkDisruptionError(`target container ${target.container?.container ?? '?'} is not running: no network namespace to disrupt`);
    return target.container.pid;
  }

  async inject(): Promise<void> {
    const spec = this.spec();
    const { target, reads, log } = this.ctx;
    if (hasHttpFilters(spec)) throw new NetworkDisruptionError('HTTP filters (--method, --path) need the eBPF tc classifier bpf-network-tc-filter, which this injector does not have');
    if (spec.services.length > 0 && this.options.watchService === undefined) {
      throw new NetworkDisruptionError(`service filters (--services) learn Services and their endpoints from the node agent's runtime API, which this injector cannot reach (${NODE_RUNTIME_SOCKET_ENV} is not set); use --hosts with the service IPs`);
    }
    const pid = this.pid;
    const pod = target.level === 'pod';
    const nodeIP = this.options.env['TARGET_POD_HOST_IP'] ?? '';
    if (pod && nodeIP === '') throw new NetworkDisruptionError('TARGET_POD_HOST_IP environment variable must be set with the target pod node IP');
    const cgroupVersion = target.container?.cgroupVersion ?? 1;
    const links = await listLinks(reads, pid, pod);
    const routes = await defaultRoutes(reads, pid);
    const hosts = await resolveHosts(spec.hosts, this.options.resolve, this.options.disruptionUid);
    const allowedHosts = await resolveHosts(spec.allowedHosts, this.options.resolve, this.options.disruptionUid);
    const plan = planNetworkDisruption({
      spec,
      level: target.level,
      onInit: this.options.onInit,
      links,
      defaultRoutes: routes,
      nodeIP,
      hosts,
      allowedHosts,
      cgroupVersion,
      ...(cgroupVersion === 2 && { cgroupRelativePath: relativeCgroupPath(target.container?.cgroups['unified'] ?? '/', cgroupRoot(this.options.env)) }),
    });

    const tcMissing: MissingFeature[] = [];
    if (plan.netClsClassId && !target.container?.cgroups['net_cls']) {
      tcMissing.push({ missing: 'the target container has no net_cls cgroup', evidence: 'cgroup v1 packet marking writes net_cls.classid' });
    }
    const choice = await chooseBackend(reads, spec, plan, tcMissing);
    if (choice.missing.length > 0) {
      const error = new FeatureUnavailableError(choice.what, choice.missing);
      if (!this.ctx.dryRun) throw error;
      log.warn(`dry-run: a real injection would fail: ${error.message}`);
    }

    log.info('adding network disruptions', { backend: choice.backend, drop: spec.drop, duplicate: spec.duplicate, corrupt: spec.corrupt, delay: spec.delay, delayJitter: spec.delayJitter, bandwidthLimit: spec.bandwidthLimit });
    if (choice.backend === 'tc' && spec.hosts.some((h) => isHostName(h.host))) log.info('host names are resolved once, at injection (upstream re-resolves them every --host-resolve-interval)');
    if (choice.backend === 'nft') {
      // The table filters the whole network namespace: nftables sees no packet mark of the targeted container
      // without a net_cls cgroup, so every container of the pod is disrupted (as upstream's onInit mode).
      if (spec.drop === 0 && spec.bandwidthLimit === 0) return; // another container of the pod carries the disruption
      this.nftTableOwner = true;
      const services = await this.watchServices(spec, (destinations) => this.replaceTable({ services: destinations }, 'service destinations changed'));
      const input: NftNetworkInput = { spec, level: target.level, links: links.map((l) => l.name), defaultRoutes: routes, nodeIP, hosts, allowedHosts, services };
      const ruleset = renderNetworkRuleset(input);
      this.table = { pid, input, written: ruleset, writing: Promise.resolve() };
      await this.writeTable(pid, ruleset);
      // A change that arrived before the table was known is written now.
      if (this.services) await this.replaceTable({ services: this.services.current() }, 'service destinations changed');
      if (this.options.resolveIntervalMs > 0 && [...spec.hosts, ...spec.allowedHosts].some((h) => isHostName(h.host))) this.reresolveEvery();
      return;
    }
    try {
      for (const link of plan.txqlenFixes) await this.run(pid, ['ip', 'link', 'set', 'dev', link, 'txqueuelen', '1000']);
      for (const args of plan.tc) await this.run(pid, ['tc', ...args]);
    } finally {
      // upstream clears the queue length it set as soon as the qdiscs exist (a prio copies it when created).
      for (const link of plan.txqlenFixes) await this.run(pid, ['ip', 'link', 'set', 'dev', link, 'txqueuelen', '0']).catch((err: unknown) => log.error(`can't clear ${link} link transmission queue length`, { error: (err as Error).message }));
    }
    const [conntrack, ...marks] = plan.iptables;
    if (conntrack && (await insertRule(this.ctx, pid, conntrack))) this.injectedRules.push(conntrack);
    if (plan.netClsClassId) {
      this.netClsDir = target.container?.cgroups['net_cls'];
      if (this.netClsDir) await this.ctx.writes.writeFile(posix.join(this.netClsDir, 'net_cls.classid'), INJECTOR_CGROUP_CLASSID);
    }
    for (const rule of marks) if (await insertRule(this.ctx, pid, rule)) this.injectedRules.push(rule);
    if (plan.tc.length > 0 && spec.services.length > 0) {
      this.tcServices = { pid, ifaces: links.map((l) => l.name), priorities: [], next: plan.nextFilterPriority, writing: Promise.resolve() };
      await this.watchServices(spec, (destinations) => this.replaceServiceFilters(destinations));
      await this.replaceServiceFilters(this.services?.current() ?? []);
    }
  }

  /** Starts following the spec's services filters; resolves with their destinations now (none without filters). */
  private async watchServices(spec: NetworkDisruptionSpec, onChange: (destinations: ResolvedHost[]) => Promise<void>): Promise<ResolvedHost[]> {
    const watch = this.options.watchService;
    if (spec.services.length === 0 || watch === undefined) return [];
    this.services = await ServiceDestinations.start({ specs: spec.services, watch, disruptionUid: this.options.disruptionUid, log: this.ctx.log, signal: this.ctx.signal, onChange });
    const destinations = this.services.current();
    this.ctx.log.info('services filters resolved', { destinations: destinations.map(describe) });
    return destinations;
  }

  /**
   * tc: the services' filters for these destinations at new priorities, then the previous ones deleted (no
   * moment without filters); one replacement at a time, and a failed one fails only itself.
   */
  private replaceServiceFilters(destinations: readonly ResolvedHost[]): Promise<void> {
    const state = this.tcServices;
    if (state === undefined) return Promise.resolve();
    const replaced = state.writing.then(async () => {
      const added = serviceFilterCommands(state.ifaces, destinations, () => state.next++);
      for (const args of added.tc) await this.run(state.pid, ['tc', ...args]);
      const previous = state.priorities;
      state.priorities = added.priorities;
      for (const priority of previous) for (const iface of state.ifaces) await this.run(state.pid, ['tc', ...deleteFilter(iface, priority)]);
      this.ctx.log.info('services filters written', { destinations: destinations.map(describe) });
    });
    state.writing = replaced.catch(() => undefined);
    return replaced;
  }

  async clean(): Promise<void> {
    const { reads, writes, log, target } = this.ctx;
    if (this.reresolution) {
      this.reresolution.stop.abort();
      await this.reresolution.done;
      this.reresolution = undefined;
    }
    await this.services?.stop();
    this.services = undefined;
    await this.table?.writing;
    await this.tcServices?.writing;
    this.table = undefined;
    this.tcServices = undefined;
    const pid = target.level === 'node' ? 1 : target.container?.pid;
    if (pid === undefined || !(await reads.exists(procPath(pid, 'ns/net')))) {
      log.warn('the target network namespace is gone, and its qdiscs and rules with it');
      this.injectedRules = [];
    } else {
      if (this.nftTableOwner || this.spec().drop > 0 || this.spec().bandwidthLimit > 0) await this.deleteNftTable(pid);
      log.info('clearing root qdiscs');
      for (const link of await listLinks(reads, pid, target.level === 'pod')) {
        let result: { code: number; stderr: string };
        try {
          result = await writes.run(inNetns(pid, ['tc', ...clearRootQdisc(link.name)]));
        } catch (err) {
          // tc cannot even start: there is no tc to have added a qdisc with
          if (!(await hasTool(reads, 'tc'))) break;
          throw err;
        }
        if (result.code !== 0 && result.code !== NO_SUCH_QDISC_EXIT_CODE) throw new NetworkDisruptionError(`error deleting root qdisc of ${link.name}: ${result.stderr.trim()}`);
      }
      await deleteRules(this.ctx, pid, this.injectedRules);
      this.injectedRules = [];
    }
    if (this.netClsDir) {
      try {
        await writes.writeFile(posix.join(this.netClsDir, 'net_cls.classid'), '0');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new NetworkDisruptionError(`error cleaning net_cls classid: ${(err as Error).message}`);
        log.warn("unable to find target container's net_cls.classid file, assuming its cgroup is gone");
      }
      this.netClsDir = undefined;
    }
  }

  private async writeTable(pid: number, ruleset: string): Promise<void> {
    const result = await this.ctx.writes.run(inNetns(pid, ['nft', ruleset]));
    if (result.code !== 0) throw new NetworkDisruptionError(`nft could not write the table ${NETWORK_TABLE} (exit ${result.code}): ${result.stderr.trim()}`);
  }

  /**
   * Renders the table again with what changed and writes it when the script differs: one `nft` transaction that
   * replaces the table. Writes happen one at a time; a failed one keeps the table as it was (the next change
   * writes everything again).
   */
  private replaceTable(change: Partial<Pick<NftNetworkInput, 'hosts' | 'allowedHosts' | 'services'>>, why: string): Promise<void> {
    const table = this.table;
    if (table === undefined) return Promise.resolve();
    table.input = { ...table.input, ...change };
    table.writing = table.writing.then(async () => {
      const ruleset = renderNetworkRuleset(table.input);
      if (ruleset === table.written || this.table !== table) return;
      try {
        await this.writeTable(table.pid, ruleset);
        table.written = ruleset;
        this.ctx.log.info(`${why}: the nftables table was replaced`, Object.fromEntries(Object.entries(change).map(([k, v]) => [k, v.map(describe)])));
      } catch (err) {
        this.ctx.log.error(`${why}, but the table could not be replaced: it stays as it was`, { error: err });
      }
    });
    return table.writing;
  }

  /** Resolves the spec's names every interval and replaces the table when an address changed; a failed resolution keeps the table. */
  private reresolveEvery(): void {
    const stop = new AbortController();
    const signal = AbortSignal.any([stop.signal, this.ctx.signal]);
    const spec = this.spec();
    const loop = async (): Promise<void> => {
      for (;;) {
        await sleep(this.options.resolveIntervalMs, signal);
        if (signal.aborted) return;
        try {
          const hosts = await resolveHosts(spec.hosts, this.options.resolve, this.options.disruptionUid);
          const allowedHosts = await resolveHosts(spec.allowedHosts, this.options.resolve, this.options.disruptionUid);
          if (signal.aborted) return;
          await this.replaceTable({ hosts, allowedHosts }, 'host addresses changed');
        } catch (err) {
          this.ctx.log.error('resolving the hosts again failed, the table stays as it was', { error: err });
        }
      }
    };
    this.reresolution = { stop, done: loop() };
  }

  /** Deletes `inet bosun-chaos` whether it exists or not; a node without nft cannot have one. */
  private async deleteNftTable(pid: number): Promise<void> {
    const result = await this.ctx.writes.run(inNetns(pid, ['nft', deleteTableScript(NETWORK_TABLE)]));
    if (result.code !== 0 && (await hasTool(this.ctx.reads, 'nft'))) throw new NetworkDisruptionError(`error deleting the nftables table ${NETWORK_TABLE}: ${result.stderr.trim()}`);
    this.nftTableOwner = false;
  }

  private async run(pid: number, argv: string[]): Promise<void> {
    const result = await this.ctx.writes.run(inNetns(pid, argv));
    if (result.code !== 0) throw new NetworkDisruptionError(`${argv.join(' ')} failed (exit ${result.code}): ${result.stderr.trim()}`);
  }
}

/** A destination as logs show it: 10.96.0.12/32:80/tcp. */
const describe = (d: ResolvedHost): string => `${d.ips.join(',')}:${d.port}/${d.protocol || 'tcp,udp'}`;

/** Not an IPv4 address or CIDR (nor empty): a name to resolve. */
const isHostName = (host: string): boolean => !/^[\d./]*$/.test(host);

function relativeCgroupPath(absolute: string, root: string): string {
  const base = root.replace(/\/+$/, '');
  return absolute.startsWith(`${base}/`) ? absolute.slice(base.length) : absolute;
}

export function networkDisruptionKind(deps: NetworkDisruptionDeps = {}): KindDefinition {
  // The containers of a pod share its netns: only the first container of a pod carries the spec, the others
  // only mark their packets (upstream gives them an empty spec). Keyed by container name, so that the injector
  // the lifecycle creates again for a restarted container carries it too.
  const carriers = new Map<string, string>();
  return {
    name: 'network-disruption',
    options: [
      { flags: '--hosts <hosts...>', description: 'List of hosts (hostname, single IP or IP block) with port and protocol to apply disruptions to (format: <host>;<port>;<protocol>;<flow>;<connState>;<dnsResolver>;<percentage>)' },
      { flags: '--allowed-hosts <hosts...>', description: 'List of allowed hosts not being impacted by the disruption (same format as --hosts)' },
      { flags: '--services <services...>', description: 'List of services to apply disruptions to (format: <name>;<namespace>;<port>-<port-name>;…;<percentage>)' },
      { flags: '--drop <percent>', description: 'Percentage to drop packets (100 is a total drop)', defaultValue: '100' },
      { flags: '--duplicate <percent>', description: 'Percentage to duplicate packets (100 is duplicating each packet)', defaultValue: '100' },
      { flags: '--corrupt <percent>', description: 'Percentage to corrupt packets (100 is a total corruption)', defaultValue: '100' },
      { flags: '--delay <ms>', description: 'Delay to add to the given container in ms', defaultValue: '0' },
      { flags: '--delay-jitter <percent>', description: 'Jitter added to the delay, as a percentage of it (default: 10%, at least 1ms)', defaultValue: '0' },
      { flags: '--bandwidth-limit <bytes>', description: 'Bandwidth limit in bytes', defaultValue: '0' },
      { flags: '--host-resolve-interval <duration>', description: 'Interval to resolve hostnames again (nftables; the tc plan resolves them once)', defaultValue: '1m0s' },
      { flags: '--method <method...>', description: 'Filter by http method (needs eBPF: not supported)' },
      { flags: '--path <path...>', description: 'Filter by path (needs eBPF: not supported beyond the default /)' },
      { flags: '--dns-pod-resolv-conf <path>', description: 'Path to pod DNS resolv.conf file (not used: the injector resolves with its own resolver)' },
      { flags: '--dns-node-resolv-conf <path>', description: 'Path to node DNS resolv.conf file (not used)' },
    ],
    create: (ctx, values) => {
      const parsed = networkDisruptionSpec(values);
      const podKey = ctx.target.container?.podUid ?? `node:${ctx.target.nodeName}`;
      const containerName = ctx.target.container?.container ?? '';
      if (!carriers.has(podKey)) carriers.set(podKey, containerName);
      return new NetworkDisruptionInjector(ctx, () => (carriers.get(podKey) === containerName ? parsed : emptySpec()), {
        onInit: boolValue(values, 'onInit', false),
        disruptionUid: stringValue(values, 'logContextDisruptionUid'),
        resolve: deps.resolve ?? systemResolver,
        env: deps.env ?? process.env,
        resolveIntervalMs: parseGoDuration('host-resolve-interval', stringValue(values, 'hostResolveInterval', '1m0s')),
        watchService: deps.watchService,
      });
    },
  };
}
