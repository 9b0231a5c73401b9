// One bearer token checked in constant time: digests of equal length are compared, so neither the token's
// content nor its length leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
  return timingSafeEqual(digest(given), digest(token)) && given !== '';
}
