// The raw request body (the signature is over its exact bytes), at most maxBytes of it. A longer body is 413:
// its Content-Length says so before any byte is read; a body that only turns out longer is read to its end
// and dropped (the server's request timeout bounds how long that may take).
import type { IncomingMessage } from 'node:http';
import { WebhookRequestError } from './request-error.ts';

export function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new WebhookRequestError(413, `the body is larger than ${maxBytes} bytes`);
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      request.resume();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    });
    request.on('end', () => (size > maxBytes ? reject(tooLarge()) : resolve(Buffer.concat(chunks, size))));
    request.on('error', reject);
  });
}
