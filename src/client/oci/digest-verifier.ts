// A blob verified while it streams: its length against the descriptor's and its sha256 against the digest that
// named it, so content that is not what the manifest promised fails the stream before anyone uses it.
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { RegistryError } from './registry-error.ts';

/** A pass-through that errors (DigestMismatch) on more bytes than `size`, or at the end on a wrong length or digest. */
export function digestVerifier(digest: string, size: number | undefined): Transform {
  const hash = createHash('sha256');
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (size !== undefined && received > size) return callback(mismatch(digest, `more than the ${size} bytes its descriptor gives`));
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      const actual = `sha256:${hash.digest('hex')}`;
      if (size !== undefined && received !== size) return callback(mismatch(digest, `${received} bytes where its descriptor gives ${size}`));
      if (actual !== digest) return callback(mismatch(digest, `the content received has digest ${actual}`));
      callback();
    },
  });
}

function mismatch(digest: string, detail: string): RegistryError {
  return new RegistryError('DigestMismatch', `blob ${digest} failed verification: ${detail}`);
}
