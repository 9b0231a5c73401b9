// Compact RS256 JSON Web Tokens (RFC 7519), as kube-apiserver signs service account tokens: a header naming the
// key, the claims, an RSA-SHA256 signature over both.
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** kube-apiserver's key id: the base64url SHA-256 of the public key's DER (serviceaccount.keyIDFromPublicKey). */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

export function signJwt(claims: Record<string, unknown>, privateKey: KeyObject): string {
  const input = `${encode({ alg: 'RS256', kid: keyId(createPublicKey(privateKey)) })}.${encode(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

/** The token's claims when it is a JWT signed by `publicKey`; undefined for anything else. */
export function verifyJwt(token: string, publicKey: KeyObject): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, claims, signature] = parts as [string, string, string];
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    if (head.alg !== 'RS256') return undefined;
    if (!verify('sha256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'))) return undefined;
    const parsed: unknown = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
