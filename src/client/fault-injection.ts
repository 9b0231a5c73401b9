// A KubeClient wrapper that fails a fraction of requests the ways real clusters do: 409 Conflict,
// 429 with Retry-After, 500, connection reset and timeout — seeded, so a failing run can be replayed.
// Resets and timeouts on writes sometimes happen *after* the server applied the write (a lost response),
// which is what makes idempotency bugs show up.
import type { KubeList, KubeObject, Status, WatchEvent } from '../apimachinery/object.ts';
import type {
  DeleteCollectionOptions,
  DeleteOptions,
  GetOptions,
  IssuedToken,
  KubeClient,
  ListOptions,
  PatchBody,
  PatchOptions,
  PodLogOptions,
  RequestOptions,
  ResourceRef,
  ResourceTarget,
  TokenRequestOptions,
  WatchOptions,
  WatchStream,
  WriteOptions,
} from './client.ts';
import { ConflictError, InternalServerError, NetworkError, TooManyRequestsError, clientTimeout, type KubeApiError } from './errors.ts';

export type FaultKind = 'conflict' | 'tooManyRequests' | 'internal' | 'reset' | 'timeout';
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'updateStatus' | 'patch' | 'patchStatus' | 'delete' | 'deleteCollection';

const allFaults: readonly FaultKind[] = ['conflict', 'tooManyRequests', 'internal', 'reset', 'timeout'];
const reads: ReadonlySet<Verb> = new Set(['get', 'list', 'watch']);

export interface FaultInjectionOptions {
  /** Fraction of requests that fail, 0..1. */
  rate: number;
  seed?: number;
  /** Which faults to draw from (uniformly); default all. Conflict is never injected on reads. */
  faults?: readonly FaultKind[];
  /** Which verbs may fail; default all. */
  verbs?: readonly Verb[];
  /** For a write failing with reset/timeout: chance the server applied it before the failure. Default 0.5. */
  lostResponseRate?: number;
  /** Chance, per delivered watch event, that the stream then breaks with ECONNRESET. Default rate / 10. */
  watchBreakRate?: number;
  /** Retry-After carried by injected 429s. Default 1 s. */
  retryAfterSeconds?: number;
  /** How long an injected timeout takes to surface. Default 0 ms. */
  timeoutDelayMs?: number;
  onFault?: (verb: Verb, fault: FaultKind | 'watchBreak') => void;
}

/** mulberry32: tiny, fast, good enough to make fault sequences reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function statusOf(code: number, reason: string, message: string, retryAfterSeconds?: number): Status {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `injected fault: ${message}`, reason, code };
  if (retryAfterSeconds !== undefined) status.details = { retryAfterSeconds };
  return status;
}

export class FaultInjectingClient implements KubeClient {
  /** Faults injected so far, by kind. */
  readonly injected: Record<FaultKind | 'watchBreak', number> = { conflict: 0, tooManyRequests: 0, internal: 0, reset: 0, timeout: 0, watchBreak: 0 };
  private readonly inner: KubeClient;
  private readonly o: FaultInjectionOptions;
  private readonly random: () => number;
  private rate: number;
  private readonly verbs: ReadonlySet<Verb>;

  constructor(inner: KubeClient, options: FaultInjectionOptions) {
    this.inner = inner;
    this.o = options;
    this.rate = options.rate;
    this.random = seededRandom(options.seed ?? 1);
    this.verbs = new Set(options.verbs ?? ['get', 'list', 'watch', 'create', 'update', 'updateStatus', 'patch', 'patchStatus', 'delete', 'deleteCollection']);
  }

  get defaultNamespace(): string | undefined {
    return this.inner.defaultNamespace;
  }

  /** Changes the failure fraction (e.g. 0 to let a test settle). */
  setRate(rate: number): void {
    this.rate = rate;
  }

  resolve(target: ResourceTarget, options?: RequestOptions): Promise<ResourceRef> {
    return this.inner.resolve(target, options);
  }

  get<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, options?: GetOptions): Promise<T> {
    return this.run('get', () => this.inner.get<T>(target, name, options));
  }

  list<T extends KubeObject = KubeObject>(target: ResourceTarget, options?: ListOptions): Promise<KubeList<T>> {
    return this.run('list', () => this.inner.list<T>(target, options));
  }

  async watch<T extends KubeObject = KubeObject>(target: ResourceTarget, options?: WatchOptions): Promise<WatchStream<T>> {
    const stream = await this.run('watch', () => this.inner.watch<T>(target, options));
    return this.breakable(stream);
  }

  create<T extends KubeObject = KubeObject>(target: ResourceTarget, obj: T, options?: WriteOptions): Promise<T> {
    return this.run('create', () => this.inner.create<T>(target, obj, options));
  }

  update<T extends KubeObject = KubeObject>(target: ResourceTarget, obj: T, options?: WriteOptions): Promise<T> {
    return this.run('update', () => this.inner.update<T>(target, obj, options));
  }

  updateStatus<T extends KubeObject = KubeObject>(target: ResourceTarget, obj: T, options?: WriteOptions): Promise<T> {
    return this.run('updateStatus', () => this.inner.updateStatus<T>(target, obj, options));
  }

  patch<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, body: PatchBody, options: PatchOptions): Promise<T> {
    return this.run('patch', () => this.inner.patch<T>(target, name, body, options));
  }

  patchStatus<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, body: PatchBody, options: PatchOptions): Promise<T> {
    return this.run('patchStatus', () => this.inner.patchStatus<T>(target, name, body, options));
  }

  delete<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, options?: DeleteOptions): Promise<T | Status> {
    return this.run('delete', () => this.inner.delete<T>(target, name, options));
  }

  deleteCollection<T extends KubeObject = KubeObject>(target: ResourceTarget, options?: DeleteCollectionOptions): Promise<KubeList<T> | Status> {
    return this.run('deleteCollection', () => this.inner.deleteCollection<T>(target, options));
  }

  podLog(name: string, options?: PodLogOptions): Promise<string> {
    return this.run('get', () => this.inner.podLog(name, options));
  }

  followPodLog(name: string, options?: PodLogOptions): Promise<AsyncIterable<string>> {
    return this.run('get', () => this.inner.followPodLog(name, options));
  }

  createToken(serviceAccount: string, options?: TokenRequestOptions): Promise<IssuedToken> {
    return this.run('create', () => this.inner.createToken(serviceAccount, options));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async run<R>(verb: Verb, call: () => Promise<R>): Promise<R> {
    const fault = this.draw(verb);
    if (fault === undefined) return call();
    this.injected[fault]++;
    this.o.onFault?.(verb, fault);
    const ambiguous = (fault === 'reset' || fault === 'timeout') && !reads.has(verb) && this.random() < (this.o.lostResponseRate ?? 0.5);
    if (ambiguous) {
      // The write reaches the server; only the answer is lost.
      try {
        const result = await call();
        if (verb === 'watch') (result as WatchStream).close();
      } catch {
        // Whatever the server said is lost with the connection.
      }
    }
    if (fault === 'timeout' && (this.o.timeoutDelayMs ?? 0) > 0) await new Promise((r) => setTimeout(r, this.o.timeoutDelayMs));
    throw this.errorFor(fault, verb);
  }

  private draw(verb: Verb): FaultKind | undefined {
    if (this.rate <= 0 || !this.verbs.has(verb)) return undefined;
    if (this.random() >= this.rate) return undefined;
    const kinds = (this.o.faults ?? allFaults).filter((k) => !(k === 'conflict' && reads.has(verb)));
    if (kinds.length === 0) return undefined;
    return kinds[Math.floor(this.random() * kinds.length)];
  }

  private errorFor(fault: FaultKind, verb: Verb): KubeApiError | NetworkError {
    switch (fault) {
      case 'conflict':
        return new ConflictError(statusOf(409, 'Conflict', `${verb}: the object has been modified; please apply your changes to the latest version and try again`));
      case 'tooManyRequests': {
        const retryAfter = this.o.retryAfterSeconds ?? 1;
        return new TooManyRequestsError(statusOf(429, 'TooManyRequests', `${verb}: too many requests`, retryAfter), retryAfter);
      }
      case 'internal':
        return new InternalServerError(statusOf(500, 'InternalError', `${verb}: internal error`));
      case 'reset':
        return new NetworkError(`injected fault: ${verb}: socket hang up`, { code: 'ECONNRESET' });
      case 'timeout':
        return clientTimeout(`injected fault: ${verb}: request timed out`);
    }
  }

  private breakable<T extends KubeObject>(stream: WatchStream<T>): WatchStream<T> {
    const breakRate = this.o.watchBreakRate ?? this.rate / 10;
    const shouldBreak = (): boolean => {
      if (this.rate <= 0 || this.random() >= breakRate) return false;
      this.injected.watchBreak++;
      this.o.onFault?.('watch', 'watchBreak');
      return true;
    };
    async function* events(): AsyncGenerator<WatchEvent<T>> {
      for await (const event of stream) {
        yield event;
        if (shouldBreak()) {
          stream.close();
          throw new NetworkError('injected fault: watch stream reset', { code: 'ECONNRESET' });
        }
      }
    }
    let iterated = false;
    return {
      get closed() {
        return stream.closed;
      },
      close: () => stream.close(),
      [Symbol.asyncIterator]() {
        if (iterated) throw new Error('a WatchStream can be iterated only once');
        iterated = true;
        return events();
      },
    };
  }
}

export function withFaultInjection(client: KubeClient, options: FaultInjectionOptions): FaultInjectingClient {
  return new FaultInjectingClient(client, options);
}
