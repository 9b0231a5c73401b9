// A small client of the node runtime API (protocol.ts) for Bosun's chaos injector: node:http over the unix
// socket the agent names in BOSUN_NODE_RUNTIME_SOCKET. Answers outside 2xx become typed errors.
import { request, type IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { NODE_RUNTIME_SOCKET_ENV, type NodeFailureRequest, type PodReplacementRequest, type RuntimeContainer, type RuntimeErrorBody, type RuntimeNode, type RuntimePodContainers, type RuntimeService } from './protocol.ts';

export class NodeRuntimeError extends Error {
  override readonly name: 'NodeRuntimeError' | 'NodeRuntimeNotFoundError' | 'NodeRuntimeForbiddenError' = 'NodeRuntimeError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** 404: no such container or pod on this node. */
export class NodeRuntimeNotFoundError extends NodeRuntimeError {
  override readonly name = 'NodeRuntimeNotFoundError' as const;
}

/** 403: the pod is not bound to this node. */
export class NodeRuntimeForbiddenError extends NodeRuntimeError {
  override readonly name = 'NodeRuntimeForbiddenError' as const;
}

/** The socket path is not known (the pod is not privileged in a trusted namespace, or not on a Bosun node). */
export class NodeRuntimeUnavailableError extends Error {
  override readonly name = 'NodeRuntimeUnavailableError' as const;
}

function errorFor(status: number, message: string): NodeRuntimeError {
  if (status === 404) return new NodeRuntimeNotFoundError(status, message);
  if (status === 403) return new NodeRuntimeForbiddenError(status, message);
  return new NodeRuntimeError(status, message);
}

async function readAll(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const segment = encodeURIComponent;

/**
 * Its method names are those of the injector's NodeRuntimePort (src/chaos/injector/node-runtime-port.ts), which
 * it satisfies as it is.
 */
export class NodeRuntimeClient {
  constructor(readonly socketPath: string) {}

  /** The client for the socket the agent told this container about. */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env): NodeRuntimeClient {
    const path = env[NODE_RUNTIME_SOCKET_ENV];
    if (path === undefined || path === '') throw new NodeRuntimeUnavailableError(`${NODE_RUNTIME_SOCKET_ENV} is not set: the node runtime API is offered only to privileged pods of trusted namespaces`);
    return new NodeRuntimeClient(path);
  }

  /** The node: its name and a process in its namespaces. */
  node(signal?: AbortSignal): Promise<RuntimeNode> {
    return this.json<RuntimeNode>('GET', '/v1/node', undefined, signal);
  }

  /** A container by its ID, with or without the bosun:// scheme. */
  container(id: string, signal?: AbortSignal): Promise<RuntimeContainer> {
    const bare = id.startsWith('bosun://') ? id.slice('bosun://'.length) : id;
    return this.json<RuntimeContainer>('GET', `/v1/containers/${segment(bare)}`, undefined, signal);
  }

  podContainers(namespace: string, name: string, signal?: AbortSignal): Promise<RuntimePodContainers> {
    return this.json<RuntimePodContainers>('GET', `/v1/pods/${segment(namespace)}/${segment(name)}/containers`, undefined, signal);
  }

  /** The pod's containers now and after each start or stop; ends when the pod leaves the node or signal aborts. */
  watchPod(namespace: string, name: string, signal?: AbortSignal): AsyncGenerator<RuntimePodContainers> {
    return this.watchLines<RuntimePodContainers>(`/v1/pods/${segment(namespace)}/${segment(name)}/containers?watch=true`, signal);
  }

  /** The Service and its ready endpoints now and after each change; ends when the agent closes the watch or signal aborts. */
  watchService(namespace: string, name: string, signal?: AbortSignal): AsyncGenerator<RuntimeService> {
    return this.watchLines<RuntimeService>(`/v1/services/${segment(namespace)}/${segment(name)}?watch=true`, signal);
  }

  /** A newline-delimited JSON watch: one value per line. */
  private async *watchLines<T>(path: string, signal: AbortSignal | undefined): AsyncGenerator<T> {
    if (signal?.aborted) return;
    const res = await this.open('GET', path, undefined, signal);
    const lines = createInterface({ input: res, crlfDelay: Infinity });
    // readline ends its iteration on close, not on a destroyed input.
    const onAbort = () => {
      lines.close();
      res.destroy();
    };
    res.once('close', () => lines.close());
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const line of lines) {
        if (line.trim() === '') continue;
        yield JSON.parse(line) as T;
      }
    } catch (error) {
      // An abort destroys the response mid-stream: that is the watch's end, not a failure.
      if (!signal?.aborted) throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      lines.close();
      res.destroy();
    }
  }

  async removeFinalizer(namespace: string, name: string, finalizer: string, signal?: AbortSignal): Promise<void> {
    await this.json('POST', `/v1/pods/${segment(namespace)}/${segment(name)}/finalizers/remove`, { finalizer }, signal);
  }

  async replacePod(namespace: string, name: string, replacement: PodReplacementRequest, signal?: AbortSignal): Promise<void> {
    await this.json('POST', `/v1/pods/${segment(namespace)}/${segment(name)}/replace`, replacement, signal);
  }

  /** Accepted (202) before the node goes dark. */
  async nodeFailure(failure: NodeFailureRequest, signal?: AbortSignal): Promise<void> {
    await this.json('POST', '/v1/node/failure', failure, signal);
  }

  private async json<T>(method: string, path: string, body: unknown, signal: AbortSignal | undefined): Promise<T> {
    const res = await this.open(method, path, body, signal);
    const text = await readAll(res);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /** Sends the request; resolves with a 2xx response, rejects with a typed error otherwise. */
  private open(method: string, path: string, body: unknown, signal: AbortSignal | undefined): Promise<IncomingMessage> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          socketPath: this.socketPath,
          path,
          method,
          headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
          ...(signal ? { signal } : {}),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve(res);
          readAll(res).then((text) => {
            let message = text;
            try {
              message = (JSON.parse(text) as RuntimeErrorBody).message;
            } catch {
              // Not JSON: the text is the message.
            }
            reject(errorFor(status, `${method} ${path}: ${status}: ${message}`));
          }, reject);
        },
      );
      req.once('error', reject);
      req.end(payload);
    });
  }
}
