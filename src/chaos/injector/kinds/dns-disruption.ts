// dns-disruption: answers the target's DNS queries for the given records from a responder in the chaos pod,
// forwarding the rest to the target's own nameservers; upstream's injector/dns_disruption.go. In the target's
// netns, an nftables table DNATs the DNS port, whatever the destination, to the responder (dns/dns-plan.ts;
// upstream writes iptables nat rules). Before any write the node is probed for nft with DNAT
// (feature-probes.ts): without it inject fails saying what is missing, and dry-run (which upstream returns
// from at once) only warns. The responder (dns/dns-responder.ts)
// listens on all addresses of the chaos pod; tests may give another (StartDnsResponder), or null for none.
import type { Injector, InjectorContext, KindDefinition } from '../injector.ts';
import { parseDnsRecords, upstreamNameservers, type DnsRecord } from './dns/dns-records.ts';
import { planDnsDisruption, type DnsPlan, type DnsProtocol } from './dns/dns-plan.ts';
import { startDnsResponder } from './dns/dns-responder.ts';
import { FEATURES, FeatureUnavailableError, hasTool, missingFeatures } from './feature-probes.ts';
import { procPath } from './mounts.ts';
import { deleteTableScript, DNS_TABLE } from './network/nft-ruleset.ts';
import { inNetns } from './network/target-netns.ts';
import { InjectorOptionError, intValue, stringValue } from './option-values.ts';

export class DnsDisruptionError extends Error {
  override readonly name = 'DnsDisruptionError' as const;
}

export interface DnsResponderConfig {
  records: DnsRecord[];
  udpPort: number;
  tcpPort: number;
  protocol: DnsProtocol;
  /** host:port of the nameservers to forward other queries to. */
  upstreamDns: string[];
}

export interface DnsResponder {
  stop(): Promise<void>;
}

export type StartDnsResponder = (config: DnsResponderConfig) => Promise<DnsResponder>;

export interface DnsDisruptionSpec {
  records: DnsRecord[];
  port: number;
  protocol: DnsProtocol;
}

export function dnsDisruptionSpec(values: Readonly<Record<string, unknown>>): DnsDisruptionSpec {
  const protocol = stringValue(values, 'protocol', 'both').toLowerCase();
  if (protocol !== 'udp' && protocol !== 'tcp' && protocol !== 'both') throw new InjectorOptionError(`--protocol: "${protocol}" is not udp, tcp or both`);
  const port = intValue(values, 'port', 53, '--port');
  if (port < 1 || port > 65535) throw new InjectorOptionError(`--port: ${port} is not a port`);
  return { records: parseDnsRecords(stringValue(values, 'records')), port, protocol };
}

/** One responder per chaos pod, whatever the number of targeted containers (upstream's sync.Once). */
interface SharedResponder {
  running?: Promise<DnsResponder>;
}

class DnsDisruptionInjector implements Injector {
  readonly kind = 'dns-disruption' as const;

  constructor(
    private readonly ctx: InjectorContext,
    private readonly spec: DnsDisruptionSpec,
    private readonly deps: { startResponder: StartDnsResponder | undefined; env: NodeJS.ProcessEnv; shared: SharedResponder },
  ) {}

  async inject(): Promise<void> {
    const { target, log } = this.ctx;
    if (target.level !== 'pod') throw new DnsDisruptionError('DNS disruptions can only be applied at the pod level');
    const pid = target.container?.pid;
    if (pid === undefined) throw new DnsDisruptionError(`target container ${target.container?.container ?? '?'} is not running: no network namespace to redirect`);
    const chaosPodIP = this.deps.env['CHAOS_POD_IP'];
    if (!chaosPodIP) throw new DnsDisruptionError('CHAOS_POD_IP environment variable must be set with the chaos pod IP');
    const plan = planDnsDisruption(this.spec.protocol, this.spec.port, chaosPodIP);

    const missing = await missingFeatures(this.ctx.reads, [FEATURES.nftDnat]);
    if (missing.length > 0) {
      const error = new FeatureUnavailableError('DNS disruptions', missing);
      if (!this.ctx.dryRun) throw error;
      log.warn(`dry-run: a real injection would fail: ${error.message}`);
    }
    if (this.ctx.dryRun) {
      // As upstream: no responder and no rules, only what would be done.
      for (const record of this.spec.records) log.info('dry-run: would answer DNS record', { ...record });
      log.info('dry-run: would write the nftables redirect', { ruleset: plan.ruleset });
      return;
    }

    await this.startResponder(plan, pid);
    // Written again by every targeted container's injector: the same table, replaced whole.
    const result = await this.ctx.writes.run(inNetns(pid, ['nft', plan.ruleset]));
    if (result.code !== 0) {
      await this.stopResponder();
      throw new DnsDisruptionError(`nft could not write the table ${DNS_TABLE} (exit ${result.code}): ${result.stderr.trim()}`);
    }
    log.info('DNS disruption injected', { port: this.spec.port, protocol: this.spec.protocol, records: this.spec.records.length });
  }

  async clean(): Promise<void> {
    if (this.ctx.dryRun) return;
    const errors: string[] = [];
    try {
      await this.stopResponder();
    } catch (err) {
      errors.push(`failed to stop DNS responder: ${(err as Error).message}`);
    }
    const pid = this.ctx.target.container?.pid;
    if (pid !== undefined && (await this.ctx.reads.exists(procPath(pid, 'ns/net')))) {
      const result = await this.ctx.writes.run(inNetns(pid, ['nft', deleteTableScript(DNS_TABLE)]));
      if (result.code !== 0 && (await hasTool(this.ctx.reads, 'nft'))) errors.push(`failed to delete the nftables table ${DNS_TABLE}: ${result.stderr.trim()}`);
    }
    if (errors.length > 0) throw new DnsDisruptionError(`errors during DNS disruption cleanup: ${errors.join('; ')}`);
  }

  private async startResponder(plan: DnsPlan, pid: number): Promise<void> {
    const start = this.deps.startResponder;
    if (!start) throw new DnsDisruptionError('no DNS responder is available to this injector: DNS disruptions cannot run');
    if (this.deps.shared.running) {
      await this.deps.shared.running;
      return;
    }
    let resolvConf: string | undefined;
    try {
      resolvConf = await this.ctx.reads.readFile(procPath(pid, 'root/etc/resolv.conf'));
    } catch {
      resolvConf = undefined;
    }
    const running = start({ records: this.spec.records, udpPort: plan.udpPort, tcpPort: plan.tcpPort, protocol: this.spec.protocol, upstreamDns: upstreamNameservers(resolvConf) });
    this.deps.shared.running = running;
    try {
      await running;
    } catch (err) {
      this.deps.shared.running = undefined;
      throw new DnsDisruptionError(`failed to start DNS responder: ${(err as Error).message}`);
    }
  }

  private async stopResponder(): Promise<void> {
    const running = this.deps.shared.running;
    if (!running) return;
    this.deps.shared.running = undefined;
    await (await running).stop();
  }
}

export function dnsDisruptionKind(deps: { startResponder?: StartDnsResponder | null; env?: NodeJS.ProcessEnv } = {}): KindDefinition {
  const shared: SharedResponder = {};
  return {
    name: 'dns-disruption',
    options: [
      { flags: '--records <records>', description: 'DNS records in format hostname:type:value:ttl;hostname:type:value:ttl' },
      { flags: '--port <port>', description: 'DNS port to intercept', defaultValue: '53' },
      { flags: '--protocol <protocol>', description: 'DNS protocol to disrupt: udp, tcp, or both', defaultValue: 'both' },
    ],
    create: (ctx, values) => new DnsDisruptionInjector(ctx, dnsDisruptionSpec(values), { startResponder: deps.startResponder === undefined ? (config) => startDnsResponder(config) : (deps.startResponder ?? undefined), env: deps.env ?? process.env, shared }),
  };
}
