// A throw-away CA and a serving certificate signed by it, made at start-up (as upstream Landscaper and
// controller-runtime's cert tooling do). The CA's PEM is the caBundle of the webhook configurations; the
// key never leaves the process.
import { isIP } from 'node:net';
import { generate } from 'selfsigned';

export interface WebhookCertificates {
  /** PEM of the serving certificate (what the server presents). */
  cert: string;
  /** PEM of its private key. */
  key: string;
  /** PEM the API server trusts: the CA that signed `cert` (caBundle). */
  caBundle: string;
}

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);

function yearsFromNow(years: number): Date {
  const d = new Date();
  d.setFullYear(d.getFullYear() + years);
  return d;
}

/** Subject alternative names for the hosts the API server may use: always loopback, plus the given ones. */
function subjectAltNames(hosts: readonly string[]): { type: 2 | 7; value?: string; ip?: string }[] {
  const all = new Set(['localhost', '127.0.0.1', '::1', ...hosts.filter((h) => !WILDCARD_ADDRESSES.has(h))]);
  return [...all].map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h }));
}

/** A new CA and a certificate for `hosts` (DNS names or IPs) signed by it. */
export async function generateWebhookCertificates(hosts: readonly string[], commonName = 'bosun-webhook'): Promise<WebhookCertificates> {
  const ca = await generate([{ name: 'commonName', value: `${commonName}-ca` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: yearsFromNow(10),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: yearsFromNow(1),
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: subjectAltNames(hosts) },
    ],
  });
  return { cert: leaf.cert, key: leaf.private, caBundle: ca.cert };
}
