// The manager: one client, shared informers (one per resource and filter), the controllers, leader
// election, a metrics + health HTTP server, runnables such as the webhook server, and an orderly stop.
// Start order follows controller-runtime: HTTP server → runnables (webhooks) → caches → leader election →
// controllers (only on the leader). Caches and runnables run on standbys too, so a new leader starts warm
// and every replica answers admission requests. Stop runs the other way round: the webhooks go last, so
// that the controllers' final writes are still admitted.
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { KubeObject } from '../apimachinery/object.ts';
import { isResourceRef, type KubeClient, type ResourceTarget } from '../client/client.ts';
import { Informer, type InformerOptions } from './informer/informer.ts';
import { Controller, type ControllerOptions } from './controller/controller.ts';
import type { OwnerKind } from './controller/handler.ts';
import { EventRecorder } from './event-recorder.ts';
import { ReadYourWrites } from './informer/read-your-writes.ts';
import { statusWriter, type StatusWriter } from './status.ts';
import { LeaderElector } from './leader-election.ts';
import { createLogger } from './logger.ts';
import { RuntimeMetrics } from './metrics.ts';
import { MetricsServer, type HealthCheck, type MetricsSecurity } from './metrics-server.ts';
import type { RateLimiter } from './workqueue/rate-limiter.ts';

export interface ManagerLeaderElection {
  /** Namespace of the Lease; default the client's default namespace, else 'default'. */
  namespace?: string;
  /** Lease name; default 'bosun-controllers'. */
  name?: string;
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

export interface ManagerOptions {
  client: KubeClient;
  /** Informers watch only this namespace; all namespaces otherwise. */
  namespace?: string;
  /** Compete for a Lease before running controllers; off by default. */
  leaderElection?: ManagerLeaderElection | false;
  /** Serve /metrics, /healthz and /readyz; port 0 picks a free one. Off when omitted. */
  metricsServer?: { port: number; host?: string; security?: MetricsSecurity };
  logger?: Logger;
  /** How long stop() lets controllers drain before cutting them off; default 30 s. */
  gracefulShutdownTimeoutMs?: number;
  /** Defaults for every informer this manager creates. */
  informerDefaults?: Partial<Omit<InformerOptions, 'client' | 'resource'>>;
  /** Defaults for every controller this manager creates; a controller's own queue options win. */
  controllerDefaults?: {
    /** A fresh rate limiter per controller queue (the backoff of failed reconciles). */
    rateLimiter?: () => RateLimiter;
  };
}

export interface InformerFilter {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** Controller options as the manager takes them: it supplies the informer, logger and metrics. */
export type ManagedControllerOptions<T extends KubeObject, C> = Omit<ControllerOptions<T, C>, 'source' | 'logger' | 'metrics' | 'kind'> & {
  /** The primary resource; a ResourceRef also tells owns() how owner references name it. */
  for: ResourceTarget;
  kind?: OwnerKind;
  filter?: InformerFilter;
};


/** Something that runs beside the controllers on every replica, leader or not (controller-runtime's Runnable). */
export interface Runnable {
  readonly name: string;
  /** Resolves once it serves; the manager starts caches and controllers only after that. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export class LeaderElectionLostError extends Error {
  override readonly name = 'LeaderElectionLostError' as const;
}

export class Manager {
  readonly client: KubeClient;
  readonly log: Logger;
  readonly metrics: RuntimeMetrics;
  /** Settles when the manager has stopped: resolves after stop(), rejects when leadership was lost. */
  readonly done: Promise<void>;

  private readonly o: ManagerOptions;
  private readonly informers = new Map<string, Informer<KubeObject>>();
  private readonly controllers: Controller<KubeObject, unknown>[] = [];
  private readonly runnables: Runnable[] = [];
  private readonly startedRunnables: Runnable[] = [];
  private readonly probes: MetricsServer;
  private elector: LeaderElector | undefined;
  private controllersStarted = false;
  private state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';
  private settle: { resolve: () => void; reject: (err: Error) => void } | undefined;

  constructor(options: ManagerOptions) {
    this.o = options;
    this.client = options.client;
    this.log = options.logger ?? createLogger();
    this.metrics = new RuntimeMetrics({ processMetrics: true });
    this.probes = new MetricsServer(this.metrics.registry, this.log);
    this.probes.addReadyzCheck('informers-synced', () => this.cachesSynced());
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Nobody may be waiting on done; an unobserved rejection must not crash the process.
    this.done.catch(() => {});
  }

  /** The one namespace the informers watch, or undefined when they watch all. */
  get namespace(): string | undefined {
    return this.o.namespace;
  }

  /** The shared informer for a resource and filter; created on first use, started with the manager. */
  informer<T extends KubeObject = KubeObject>(resource: ResourceTarget, filter: InformerFilter = {}): Informer<T> {
    const namespace = filter.namespace ?? this.o.namespace;
    const id = isResourceRef(resource) ? `${resource.group}/${resource.version}/${resource.resource}` : `${resource.apiVersion}/${resource.kind}`;
    const key = JSON.stringify([id, namespace ?? '', filter.labelSelector ?? '', filter.fieldSelector ?? '']);
    let informer = this.informers.get(key);
    if (!informer) {
      const log = this.log.child({ informer: id, ...(namespace ? { namespace } : {}) });
      informer = new Informer<KubeObject>({
        onError: (err, info) => log.warn({ err, ...info }, 'informer error; retrying'),
        ...this.o.informerDefaults,
        client: this.client,
        resource,
        ...(namespace !== undefined ? { namespace } : {}),
        ...(filter.labelSelector !== undefined ? { labelSelector: filter.labelSelector } : {}),
        ...(filter.fieldSelector !== undefined ? { fieldSelector: filter.fieldSelector } : {}),
      });
      this.informers.set(key, informer);
      if (this.state === 'running') informer.start();
    }
    return informer as unknown as Informer<T>;
  }

  /**
   * Builds a controller on the primary resource's shared informer. Chain owns()/watches() right after this
   * call: on a running manager the controller starts on the next turn of the event loop, once the
   * synchronous builder chain has run (controller-runtime's Complete()).
   */
  controller<T extends KubeObject, C>(options: ManagedControllerOptions<T, C>): Controller<T, C> {
    if (this.controllers.some((c) => c.name === options.name)) throw new Error(`controller "${options.name}" is already registered`);
    const { for: resource, filter, kind, ...rest } = options;
    const owner = kind ?? (isResourceRef(resource) ? { group: resource.group, kind: resource.kind, namespaced: resource.namespaced } : undefined);
    const controller = new Controller<T, C>({
      ...rest,
      source: this.informer<T>(resource, filter),
      ...(owner ? { kind: owner } : {}),
      logger: this.log,
      metrics: this.metrics.controller(options.name),
      queue: {
        ...(this.o.controllerDefaults?.rateLimiter && !options.queue?.rateLimiter ? { rateLimiter: this.o.controllerDefaults.rateLimiter() } : {}),
        ...options.queue,
        metrics: this.metrics.queue(options.name),
      },
    });
    this.metrics.trackQueue(options.name, controller.queue);
    this.controllers.push(controller as unknown as Controller<KubeObject, unknown>);
    if (this.controllersStarted) {
      setImmediate(() => {
        // stop() may have come first: it has already stopped this controller.
        if (this.state === 'running') void this.startController(controller as unknown as Controller<KubeObject, unknown>);
      });
    }
    return controller;
  }

  /**
   * A read-your-writes view attached to the shared informer of the resource: a reconcile that runs before the
   * cache has our write resolves the cached object to the one we wrote (pass it to statusWriter).
   */
  readYourWrites<T extends KubeObject>(resource: ResourceTarget, filter: InformerFilter = {}): ReadYourWrites<T> {
    const writes = new ReadYourWrites<T>();
    writes.attach(this.informer<T>(resource, filter));
    return writes;
  }

  /** The status writer of a resource; with readYourWrites, every write it makes is recorded there. */
  statusWriter<T extends KubeObject>(resource: ResourceTarget, options: { readYourWrites?: ReadYourWrites<T> } = {}): StatusWriter<T> {
    const writes = options.readYourWrites;
    return statusWriter<T>(this.client, resource, writes ? { afterWrite: (before, stored) => writes.record(before.metadata.resourceVersion, stored) } : {});
  }

  /** Adds a runnable; started by start() in the order added, before caches and controllers. */
  add(runnable: Runnable): void {
    if (this.state !== 'new') throw new Error(`runnable "${runnable.name}" added after the manager started`);
    this.runnables.push(runnable);
  }

  recorder(component: string, instance?: string): EventRecorder {
    return new EventRecorder({ client: this.client, component, logger: this.log, ...(instance ? { instance } : {}) });
  }

  addHealthzCheck(name: string, check: HealthCheck): void {
    this.probes.addHealthzCheck(name, check);
  }

  addReadyzCheck(name: string, check: HealthCheck): void {
    this.probes.addReadyzCheck(name, check);
  }

  get isLeader(): boolean {
    return this.elector ? this.elector.isLeader : this.controllersStarted;
  }

  /** The metrics server's address (port resolved when 0 was asked for). */
  get metricsAddress(): AddressInfo | undefined {
    return this.probes.address;
  }

  /** True when every informer has synced. */
  cachesSynced(): boolean {
    for (const informer of this.informers.values()) if (!informer.hasSynced()) return false;
    return true;
  }

  /** Starts everything; resolves once running (not once leading). */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error('manager already started');
    this.state = 'running';
    if (this.o.metricsServer) await this.probes.listen(this.o.metricsServer.port, this.o.metricsServer.host ?? '127.0.0.1', this.o.metricsServer.security);
    for (const runnable of this.runnables) {
      try {
        await runnable.start();
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        this.log.error({ err: error, runnable: runnable.name }, 'runnable failed to start');
        await this.shutdown(error);
        throw error;
      }
      // stop() came while this one was starting: shutdown has already passed the runnables.
      if (this.state !== 'running') {
        await runnable.stop();
        return;
      }
      this.startedRunnables.push(runnable);
    }
    for (const informer of this.informers.values()) informer.start();
    const le = this.o.leaderElection;
    if (!le) {
      this.startControllers();
      return;
    }
    this.elector = new LeaderElector({
      client: this.client,
      namespace: le.namespace ?? this.client.defaultNamespace ?? 'default',
      name: le.name ?? 'bosun-controllers',
      logger: this.log,
      ...(le.identity !== undefined ? { identity: le.identity } : {}),
      ...(le.leaseDurationMs !== undefined ? { leaseDurationMs: le.leaseDurationMs } : {}),
      ...(le.renewDeadlineMs !== undefined ? { renewDeadlineMs: le.renewDeadlineMs } : {}),
      ...(le.retryPeriodMs !== undefined ? { retryPeriodMs: le.retryPeriodMs } : {}),
      onStartedLeading: () => this.startControllers(),
      onStoppedLeading: (reason) => {
        if (reason === 'lost') void this.shutdown(new LeaderElectionLostError('leader election lost'));
      },
    });
    this.elector.start();
  }

  /** Graceful stop: controllers drain (bounded by gracefulShutdownTimeoutMs), the lease is released, caches and server stop. */
  stop(): Promise<void> {
    return this.shutdown(undefined);
  }

  private startControllers(): void {
    if (this.controllersStarted || this.state !== 'running') return;
    this.controllersStarted = true;
    for (const controller of this.controllers) void this.startController(controller);
  }

  private async startController(controller: Controller<KubeObject, unknown>): Promise<void> {
    try {
      await controller.start();
    } catch (err) {
      this.log.error({ err, controller: controller.name }, 'controller failed to start');
      await this.shutdown(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private async shutdown(cause: Error | undefined): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') return this.done.catch(() => {});
    this.state = 'stopping';
    const lost = cause instanceof LeaderElectionLostError;
    this.log.info({ reason: cause?.message ?? 'stop requested' }, 'manager stopping');
    // After losing the lease another manager may already lead: stop writing at once, no draining.
    const graceMs = lost ? 0 : (this.o.gracefulShutdownTimeoutMs ?? 30_000);
    await this.stopControllers(graceMs);
    if (this.elector) await this.elector.stop();
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
    for (const runnable of this.startedRunnables.splice(0).reverse()) {
      await runnable.stop().catch((err: unknown) => this.log.error({ err, runnable: runnable.name }, 'runnable failed to stop'));
    }
    await this.probes.close();
    this.state = 'stopped';
    this.log.info('manager stopped');
    if (cause) this.settle?.reject(cause);
    else this.settle?.resolve();
  }

  private async stopControllers(graceMs: number): Promise<void> {
    if (graceMs <= 0) {
      await Promise.all(this.controllers.map((c) => c.stop({ drain: false })));
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const drained = Promise.all(this.controllers.map((c) => c.stop({ drain: true }))).then(() => true);
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    });
    const inTime = await Promise.race([drained, late]);
    clearTimeout(timer);
    if (!inTime) {
      this.log.warn({ graceMs }, 'controllers did not drain in time; stopping them');
      await Promise.all(this.controllers.map((c) => c.stop({ drain: false })));
    }
  }
}
