// Leader election on a coordination.k8s.io/v1 Lease, after client-go's leaderelection package:
// - acquire: every retryPeriod (jittered), take the lease when it is free, released, or expired —
//   expiry judged by when *we* last saw the record change, so clock skew between hosts does not matter;
// - renew: every retryPeriod; if no renewal succeeds for renewDeadline, leadership is lost (the lease
//   may still be ours, but we can no longer prove it before leaseDuration runs out elsewhere);
// - every write is an update with the read resourceVersion, so two candidates never both win;
// - release on graceful stop: clear holderIdentity so a standby takes over at its next retry.
// There is no fencing: the leader must stop writing as soon as the returned signal aborts.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';
import type { Lease, LeaseSpec } from '../apimachinery/api/index.ts';
import { leasesResource } from '../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../client/client.ts';
import { AlreadyExistsError, ConflictError, NotFoundError } from '../client/errors.ts';
import { realClock, type Clock, type TimerHandle } from './workqueue/clock.ts';

export interface LeaderElectionOptions {
  client: KubeClient;
  namespace: string;
  /** The Lease's name: one per set of managers competing for the same work. */
  name: string;
  /** Unique per candidate; default hostname + '_' + a UUID (client-go's convention). */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Clear the lease on stop() so another candidate takes over at once; default true. */
  releaseOnStop?: boolean;
  clock?: Clock;
  logger?: Logger;
  /** Called once leadership is won; the signal aborts when it is lost or released. */
  onStartedLeading?: (signal: AbortSignal) => void;
  /** Called when leadership ends: lost (renewal failed) or released. */
  onStoppedLeading?: (reason: 'lost' | 'released') => void;
  /** Called whenever the observed holder changes. */
  onNewLeader?: (identity: string) => void;
}

export class LeaderElectionError extends Error {
  override readonly name = 'LeaderElectionError' as const;
}

/** MicroTime: RFC 3339 with microseconds. */
function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export class LeaderElector {
  readonly identity: string;
  private readonly o: LeaderElectionOptions;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly leaseMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryMs: number;

  /** The last record we saw, as JSON, and when (our clock) it last changed. */
  private observedRecord = '';
  private observedAt = 0;
  private observedHolder = '';
  private lease: Lease | undefined;
  private lastRenew = 0;
  private leading: AbortController | undefined;
  private timer: TimerHandle | undefined;
  private stopped = false;
  private wonWhileStopping = false;
  private busy: Promise<void> = Promise.resolve();

  constructor(options: LeaderElectionOptions) {
    this.o = options;
    this.identity = options.identity ?? `${hostname()}_${randomUUID()}`;
    this.clock = options.clock ?? realClock;
    this.log = (options.logger ?? pino({ enabled: false })).child({ lease: `${options.namespace}/${options.name}`, identity: this.identity });
    this.leaseMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryMs = options.retryPeriodMs ?? 2_000;
    // client-go's sanity rules: a lease must outlive the renew deadline, which must outlive retries.
    if (!(this.leaseMs > this.renewDeadlineMs)) throw new LeaderElectionError('leaseDuration must be greater than renewDeadline');
    if (!(this.renewDeadlineMs > this.retryMs * 1.2)) throw new LeaderElectionError('renewDeadline must be greater than retryPeriod × 1.2');
  }

  get isLeader(): boolean {
    return this.leading !== undefined;
  }

  /** The holder seen last ('' when free or unknown). */
  get leader(): string {
    return this.observedHolder;
  }

  /** Starts competing; returns at once. Leadership is reported through the callbacks. */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops competing; releases the lease when held (unless releaseOnStop is false). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    await this.busy;
    if (!this.leading && !this.wonWhileStopping) return;
    this.wonWhileStopping = false;
    if (this.o.releaseOnStop ?? true) await this.release();
    this.endLeading('released');
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = this.clock.schedule(() => {
      this.timer = undefined;
      this.busy = this.tick();
    }, ms);
  }

  private async tick(): Promise<void> {
    const ok = await this.tryAcquireOrRenew();
    if (this.stopped) {
      // stop() came while this attempt was in flight: a lease won now must still be released.
      if (ok && !this.leading) this.wonWhileStopping = true;
      return;
    }
    const now = this.clock.now();
    if (this.leading) {
      const stolen = this.observedHolder !== '' && this.observedHolder !== this.identity;
      if (ok) this.lastRenew = now;
      else if (stolen || now - this.lastRenew >= this.renewDeadlineMs) {
        this.log.error({ sinceRenewMs: Math.round(now - this.lastRenew), holder: this.observedHolder }, 'leader election lost: could not renew the lease');
        // As in client-go, a lost election ends this elector: the process restarts with fresh state.
        this.stopped = true;
        this.endLeading('lost');
        return;
      }
      this.schedule(this.retryMs);
      return;
    }
    if (ok) {
      this.lastRenew = now;
      this.leading = new AbortController();
      this.log.info('became leader');
      this.o.onStartedLeading?.(this.leading.signal);
      this.schedule(this.retryMs);
      return;
    }
    // Candidates jitter their retries (×1.0–1.2) so they don't hit the lease in lockstep.
    this.schedule(this.retryMs * (1 + 0.2 * Math.random()));
  }

  private endLeading(reason: 'lost' | 'released'): void {
    const leading = this.leading;
    if (!leading) return;
    this.leading = undefined;
    leading.abort(new LeaderElectionError(`leadership ${reason}`));
    this.o.onStoppedLeading?.(reason);
  }

  /** One attempt; true when the lease is ours afterwards. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date();
    const timeoutMs = Math.max(1, Math.min(this.retryMs, this.renewDeadlineMs));
    const request = { namespace: this.o.namespace, timeoutMs };
    const spec: LeaseSpec = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.ceil(this.leaseMs / 1000),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: 0,
    };
    let current: Lease;
    try {
      current = await this.o.client.get<Lease>(leasesResource, this.o.name, request);
    } catch (err) {
      if (!(err instanceof NotFoundError)) return this.failed(err, 'get');
      try {
        this.lease = await this.o.client.create<Lease>(leasesResource, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.o.name, namespace: this.o.namespace }, spec }, request);
        this.observe(this.lease);
        return true;
      } catch (createErr) {
        if (createErr instanceof AlreadyExistsError) return false;
        return this.failed(createErr, 'create');
      }
    }
    this.observe(current);
    const old = current.spec ?? {};
    const holder = old.holderIdentity ?? '';
    const held = holder !== '' && holder !== this.identity;
    const durationMs = (old.leaseDurationSeconds ?? Math.ceil(this.leaseMs / 1000)) * 1000;
    if (held && this.clock.now() < this.observedAt + durationMs) return false;
    if (holder === this.identity) {
      spec.acquireTime = old.acquireTime ?? spec.acquireTime;
      spec.leaseTransitions = old.leaseTransitions ?? 0;
    } else {
      spec.leaseTransitions = (old.leaseTransitions ?? 0) + 1;
    }
    try {
      this.lease = await this.o.client.update<Lease>(leasesResource, { ...current, spec }, request);
      this.observe(this.lease);
      return true;
    } catch (err) {
      if (err instanceof ConflictError) return false;
      return this.failed(err, 'update');
    }
  }

  private failed(err: unknown, verb: string): false {
    this.log.warn({ err, verb }, 'lease request failed');
    return false;
  }

  private observe(lease: Lease): void {
    const record = JSON.stringify(lease.spec ?? {});
    if (record !== this.observedRecord) {
      this.observedRecord = record;
      this.observedAt = this.clock.now();
    }
    const holder = lease.spec?.holderIdentity ?? '';
    if (holder !== this.observedHolder) {
      this.observedHolder = holder;
      if (holder) {
        this.log.info({ leader: holder }, 'new leader observed');
        this.o.onNewLeader?.(holder);
      }
    }
  }

  /** Gives the lease up: empty holder, 1 s duration, so others need not wait for expiry. */
  private async release(): Promise<void> {
    const lease = this.lease;
    if (!lease || lease.spec?.holderIdentity !== this.identity) return;
    const now = microTime(new Date());
    try {
      await this.o.client.update<Lease>(
        leasesResource,
        { ...lease, spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now } },
        { namespace: this.o.namespace, timeoutMs: this.retryMs },
      );
      this.log.info('released the lease');
    } catch (err) {
      this.log.warn({ err }, 'could not release the lease; others take over when it expires');
    }
  }
}
