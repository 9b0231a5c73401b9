// sprig base64/base32: decoding errors are returned as the output text, not as template errors.
import { goFunc, type FuncMap } from '../../value.ts';

const S = { params: ['string'], results: ['string'] };

/** base64.StdEncoding.DecodeString's strictness: padding required, error names the first bad byte. */
function b64dec(s: string): string {
  const bad = /[^A-Za-z0-9+/=]/.exec(s);
  if (bad) return `illegal base64 data at input byte ${bad.index}`;
  if (s.length % 4 !== 0) {
    const pos = s.length - (s.length % 4);
    return `illegal base64 data at input byte ${pos + (s.length % 4 === 1 ? 0 : s.length % 4 === 0 ? 0 : 0)}`;
  }
  const eq = s.indexOf('=');
  if (eq >= 0 && !/^=+$/.test(s.slice(eq))) return `illegal base64 data at input byte ${eq}`;
  if (eq >= 0 && s.length - eq > 2) return `illegal base64 data at input byte ${eq}`;
  return Buffer.from(s, 'base64').toString('utf8');
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function b32enc(s: string): string {
  const bytes = Buffer.from(s, 'utf8');
  let out = '';
  for (let i = 0; i < bytes.length; i += 5) {
    const chunk = bytes.subarray(i, i + 5);
    let bits = 0n;
    for (let j = 0; j < 5; j++) bits = (bits << 8n) | BigInt(chunk[j] ?? 0);
    const chars = Math.ceil((chunk.length * 8) / 5);
    for (let j = 0; j < 8; j++) out += j < chars ? B32[Number((bits >> BigInt(35 - j * 5)) & 31n)] : '=';
  }
  return out;
}

function b32dec(s: string): string {
  if (s.length % 8 !== 0) return `illegal base32 data at input byte ${s.length - (s.length % 8)}`;
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 8) {
    const chunk = s.slice(i, i + 8);
    let bits = 0n;
    let n = 0;
    for (let j = 0; j < 8; j++) {
      const c = chunk[j]!;
      if (c === '=') break;
      const v = B32.indexOf(c);
      if (v < 0) return `illegal base32 data at input byte ${i + j}`;
      bits = (bits << 5n) | BigInt(v);
      n++;
    }
    const nbytes = Math.floor((n * 5) / 8);
    bits >>= BigInt(n * 5 - nbytes * 8);
    for (let j = nbytes - 1; j >= 0; j--) out.push(Number((bits >> BigInt(j * 8)) & 255n));
  }
  return Buffer.from(out).toString('utf8');
}

export const encodingFunctions: FuncMap = {
  b64enc: goFunc(S, (s: string) => Buffer.from(s, 'utf8').toString('base64')),
  b64dec: goFunc(S, b64dec),
  b32enc: goFunc(S, b32enc),
  b32dec: goFunc(S, b32dec),
};
