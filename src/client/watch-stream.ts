// Decodes a watch response (one JSON WatchEvent per line) into a WatchStream.
// ERROR events become thrown typed errors (410 → GoneError), so consumers handle one error path.
import type { KubeObject, Status, WatchEvent } from '../apimachinery/object.ts';
import type { WatchStream } from './client.ts';
import { NetworkError, errorFromStatus, toStatus } from './errors.ts';

export interface RawStream {
  body: AsyncIterable<Buffer | string>;
  abort(): void;
}

export function decodeWatchStream<T extends KubeObject>(raw: RawStream): WatchStream<T> {
  let closed = false;
  let iterated = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    raw.abort();
  };

  async function* events(): AsyncGenerator<WatchEvent<T>> {
    let pending = '';
    try {
      for await (const chunk of raw.body) {
        if (closed) return;
        pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
        let nl = pending.indexOf('\n');
        while (nl >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          const event = parseLine<T>(line);
          if (event) yield event;
          if (closed) return;
          nl = pending.indexOf('\n');
        }
      }
      const last = parseLine<T>(pending);
      if (last && !closed) yield last;
    } catch (err) {
      if (!closed) throw err;
    } finally {
      close();
    }
  }

  return {
    get closed() {
      return closed;
    },
    close,
    [Symbol.asyncIterator]() {
      if (iterated) throw new Error('a WatchStream can be iterated only once');
      iterated = true;
      return events();
    },
  };
}

function parseLine<T extends KubeObject>(line: string): WatchEvent<T> | undefined {
  // Blank lines are keep-alives some servers send on quiet watches.
  if (line.trim() === '') return undefined;
  let event: WatchEvent<T>;
  try {
    event = JSON.parse(line) as WatchEvent<T>;
  } catch (err) {
    // A torn line means the stream is corrupt: surface it so the caller reconnects, never skip silently.
    throw new NetworkError(`malformed watch event: ${line.slice(0, 200)}`, { cause: err, code: 'EBADMSG' });
  }
  if (event.type === 'ERROR') {
    const obj = event.object as unknown as Status;
    throw errorFromStatus(toStatus(typeof obj?.code === 'number' ? obj.code : 500, obj));
  }
  if (typeof event.object !== 'object' || event.object === null) {
    throw new NetworkError(`watch event without object: ${line.slice(0, 200)}`, { code: 'EBADMSG' });
  }
  return event;
}
