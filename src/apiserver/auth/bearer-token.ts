// The bearer token: generated once, kept 0600 in the data dir, compared in constant time.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function loadOrCreateToken(dataDir: string): string {
  const path = join(dataDir, 'token');
  if (existsSync(path)) {
    const token = readFileSync(path, 'utf8').trim();
    if (token.length >= 32) return token;
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Parsed as kube-apiserver's bearertoken authenticator: the scheme in any case (RFC 7235), then the token. */
export function checkBearer(header: string | undefined, token: string): boolean {
  const [scheme, value] = (header ?? '').trim().split(' ', 2);
  return scheme?.toLowerCase() === 'bearer' && value !== undefined && value !== '' && tokensEqual(value, token);
}

/** Compared in constant time, so the time taken says nothing about how much of a guess was right. */
export function tokensEqual(value: string, token: string): boolean {
  const given = Buffer.from(value);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
