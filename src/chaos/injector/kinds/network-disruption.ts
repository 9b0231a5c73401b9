// network-disruption: drops, delays, duplicates, corrupts or limits the target's traffic inside its network
// namespace; upstream's injector/network_disruption.go, network/tc.go and network/iptables.go. Where the kernel
// has the qdiscs, upstream's tc tree (network/plan.ts: prio, netem, tbf, flower filters, iptables marks); where
// it has not, an nftables table `inet bosun-chaos` (network/nft-ruleset.ts) drops and polices the same packets,
// and what only qdiscs can do (delay, corrupt, duplicate) is refused naming the missing kernel features
// (network/backend.ts makes the choice). Commands run through ctx.writes (`nsenter --net=… tc|nft …`), so
// dry-run runs everything but them, and only warns about what is missing (the pod gets Ready).
// Host names are resolved again every --host-resolve-interval on nftables, the table replaced when their
// addresses change (upstream updates its tc filters the same way); the tc plan resolves them once.
// Not ported: the eBPF HTTP filters (--method/--path) and Kubernetes service filters (--services): they fail.
import { posix } from 'node:path';
import type { Injector, InjectorContext, KindDefinition } from '../injector.ts';
import { FeatureUnavailableError, hasTool, type MissingFeature } from './feature-probes.ts';
import { chooseBackend } from './network/backend.ts';
import { cgroupRoot, procPath } from './mounts.ts';
import { deleteRules, insertRule } from './network/iptables-in-netns.ts';
import type { IptablesRule } from './network/iptables-rules.ts';
import { deleteTableScript, NETWORK_TABLE, renderNetworkRuleset, type NftNetworkInput } from './network/nft-ruleset.ts';
import { emptySpec, hasHttpFilters, networkDisruptionSpec, type NetworkDisruptionSpec } from './network/network-spec.ts';
import { planNetworkDisruption } from './network/plan.ts';
import { resolveHosts, systemResolver, type HostResolver } from './network/resolve-hosts.ts';
import { clearRootQdisc, INJECTOR_CGROUP_CLASSID, NO_SUCH_QDISC_EXIT_CODE } from './network/tc-commands.ts';
import { defaultRoutes, inNetns, listLinks } from './network/target-netns.ts';
import { parseGoDuration, sleep } from '../durations.ts';
import { boolValue, stringValue } from './option-values.ts';

export class NetworkDisruptionError extends Error {
  override readonly name = 'NetworkDisruptionError' as const;
}

export interface NetworkDisruptionDeps {
  resolve?: HostResolver;
  env?: NodeJS.ProcessEnv;
}

class NetworkDisruptionInjector implements Injector {
  readonly kind = 'network-disruption' as const;
  private injectedRules: IptablesRule[] = [];
  private netClsDir: string | undefined;
  /** This injector wrote the nftables table (or, restarted, may have): its clean deletes it. */
  private nftTableOwner = false;
  /** The loop that resolves host names again (nft), stopped and awaited by clean before it deletes the table. */
  private reresolution: { stop: AbortController; done: Promise<void> } | undefined;

  constructor(
    private readonly ctx: InjectorContext,
    private readonly spec: () => NetworkDisruptionSpec,
    private readonly options: { onInit: boolean; disruptionUid: string; resolve: HostResolver; env: NodeJS.ProcessEnv; resolveIntervalMs: number },
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
    if (spec.services.length > 0) throw new NetworkDisruptionError('service filters (--services) need to watch the Kubernetes API, which the injector cannot do on this node yet; use --hosts with the service IPs');
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
      const input: NftNetworkInput = { spec, level: target.level, links: links.map((l) => l.name), defaultRoutes: routes, nodeIP, hosts, allowedHosts };
      const ruleset = renderNetworkRuleset(input);
      await this.writeTable(pid, ruleset);
      if (this.options.resolveIntervalMs > 0 && [...spec.hosts, ...spec.allowedHosts].some((h) => isHostName(h.host))) this.reresolveEvery(pid, input, ruleset);
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
  }

  async clean(): Promise<void> {
    const { reads, writes, log, target } = this.ctx;
    if (this.reresolution) {
      this.reresolution.stop.abort();
      await this.reresolution.done;
      this.reresolution = undefined;
    }
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

  /** Resolves the spec's names every interval and replaces the table when an address changed; a failed resolution keeps the table. */
  private reresolveEvery(pid: number, input: NftNetworkInput, written: string): void {
    const stop = new AbortController();
    const signal = AbortSignal.any([stop.signal, this.ctx.signal]);
    const spec = this.spec();
    const loop = async (): Promise<void> => {
      let current = written;
      for (;;) {
        await sleep(this.options.resolveIntervalMs, signal);
        if (signal.aborted) return;
        try {
          const hosts = await resolveHosts(spec.hosts, this.options.resolve, this.options.disruptionUid);
          const allowedHosts = await resolveHosts(spec.allowedHosts, this.options.resolve, this.options.disruptionUid);
          const ruleset = renderNetworkRuleset({ ...input, hosts, allowedHosts });
          if (ruleset === current || signal.aborted) continue;
          await this.writeTable(pid, ruleset);
          current = ruleset;
          this.ctx.log.info('host addresses changed: the nftables table was replaced', { hosts: hosts.flatMap((h) => h.ips), allowedHosts: allowedHosts.flatMap((h) => h.ips) });
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
      });
    },
  };
}
