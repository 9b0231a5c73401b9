// A network disruption's `services` filters, kept current: one watch of the node runtime API per filter
// (GET /v1/services/{ns}/{name}?watch=true: the agent follows the Service and its EndpointSlices), each answer
// turned into destinations (service-filters.ts), and onChange called with all of them whenever they change —
// as upstream's injector watches each Service and its pods and adds or deletes tc filters. A watch that fails
// or ends (the agent restarted) is opened again with exponential backoff; the destinations stay as they were
// meanwhile.
import type { RuntimeService } from '../../../../client/node-runtime/protocol.ts';
import { Backoff, realClock } from '../../../../runtime/index.ts';
import { sleep } from '../../durations.ts';
import type { InjectorLogger } from '../../injector.ts';
import type { ServiceSpec } from './network-spec.ts';
import type { ResolvedHost } from './plan.ts';
import { serviceFilters } from './service-filters.ts';

export type WatchService = (namespace: string, name: string, signal: AbortSignal) => AsyncIterable<RuntimeService>;

export class ServiceFilterError extends Error {
  override readonly name = 'ServiceFilterError' as const;
}

export interface ServiceWatchOptions {
  specs: readonly ServiceSpec[];
  watch: WatchService;
  disruptionUid: string;
  log: InjectorLogger;
  signal: AbortSignal;
  /** Every later change of the destinations (not the first ones, which start() returns); awaited before the next. */
  onChange(destinations: ResolvedHost[]): Promise<void>;
}

const key = (d: ResolvedHost): string => `${d.ips.join(',')}:${d.port}:${d.protocol}`;

export class ServiceDestinations {
  private readonly stopper = new AbortController();
  private readonly perService: ResolvedHost[][];
  private loops: Promise<void>[] = [];
  /** Changes are delivered one at a time, in order. */
  private delivering: Promise<void> = Promise.resolve();

  private constructor(private readonly options: ServiceWatchOptions) {
    this.perService = options.specs.map(() => []);
  }

  /**
   * Opens a watch per filter and resolves with the destinations once each has answered. A Service that does not
   * exist fails it, as upstream's injection fails to get it; so does a node agent that cannot be reached.
   */
  static async start(options: ServiceWatchOptions): Promise<ServiceDestinations> {
    const watching = new ServiceDestinations(options);
    const signal = AbortSignal.any([watching.stopper.signal, options.signal]);
    const firsts = options.specs.map((spec, i) => {
      const iterator = options.watch(spec.namespace, spec.name, signal)[Symbol.asyncIterator]();
      const first = iterator.next();
      first.catch(() => undefined); // awaited below, unless an earlier one fails first
      return { spec, i, iterator, first };
    });
    try {
      for (const { spec, i, first } of firsts) {
        const answer = await first;
        if (answer.done) throw new ServiceFilterError(`the node agent closed the watch of service ${spec.namespace}/${spec.name} before answering`);
        if (!answer.value.exists) throw new ServiceFilterError(`error getting the given kubernetes service (${spec.namespace}/${spec.name}): services "${spec.name}" not found`);
        watching.perService[i] = watching.resolve(spec, answer.value);
      }
    } catch (error) {
      watching.stopper.abort();
      await Promise.allSettled(firsts.map(async (f) => f.iterator.return?.(undefined)));
      throw error;
    }
    watching.loops = firsts.map(({ spec, i, iterator }) => watching.follow(spec, i, iterator, signal));
    return watching;
  }

  /** The destinations of every filter now, each once. */
  current(): ResolvedHost[] {
    const unique = new Map<string, ResolvedHost>();
    for (const d of this.perService.flat()) unique.set(key(d), d);
    return [...unique.values()];
  }

  /** Stops the watches and waits for a change being applied. */
  async stop(): Promise<void> {
    this.stopper.abort();
    await Promise.all(this.loops);
    await this.delivering;
  }

  private resolve(spec: ServiceSpec, view: RuntimeService): ResolvedHost[] {
    const filters = serviceFilters(spec, view, this.options.disruptionUid);
    if (filters.missingPorts.length > 0) this.options.log.warn('the service has none of these ports: they are not filtered', { service: `${spec.namespace}/${spec.name}`, ports: filters.missingPorts });
    return filters.destinations;
  }

  private async follow(spec: ServiceSpec, i: number, first: AsyncIterator<RuntimeService>, signal: AbortSignal): Promise<void> {
    const backoff = new Backoff(realClock, { initialMs: 500, maxMs: 30_000 });
    let iterator: AsyncIterator<RuntimeService> | undefined = first;
    while (!signal.aborted) {
      try {
        iterator ??= this.options.watch(spec.namespace, spec.name, signal)[Symbol.asyncIterator]();
        for (let answer = await iterator.next(); !answer.done; answer = await iterator.next()) {
          backoff.reset();
          this.update(i, this.resolve(spec, answer.value));
        }
        if (signal.aborted) return;
        this.options.log.warn('the node agent ended the watch of a service, watching again', { service: `${spec.namespace}/${spec.name}` });
      } catch (error) {
        if (signal.aborted) return;
        this.options.log.warn('watching a service failed, watching again', { service: `${spec.namespace}/${spec.name}`, error });
      }
      iterator = undefined;
      await sleep(backoff.next(), signal);
    }
  }

  private update(i: number, destinations: ResolvedHost[]): void {
    const before = this.current().map(key).join(' ');
    this.perService[i] = destinations;
    const after = this.current();
    if (after.map(key).join(' ') === before) return;
    this.delivering = this.delivering.then(() => this.options.onChange(after)).catch((error: unknown) => this.options.log.error('applying the changed service destinations failed', { error }));
  }
}
