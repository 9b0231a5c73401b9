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

export interface CertificateAuthority {
  cert: string;
  key: string;
}

/** When a certificate is valid; by default from now on (10 years for a CA, 1 year for a leaf). */
export interface Validity {
  notBefore: Date;
  notAfter: Date;
}

/** A new CA (10 years), to sign serving or client certificates with issueCertificate. */
export async function generateCertificateAuthority(commonName: string, validity?: Validity): Promise<CertificateAuthority> {
  const ca = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    ...(validity ? { notBeforeDate: validity.notBefore } : {}),
    notAfterDate: validity?.notAfter ?? yearsFromNow(10),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return { cert: ca.cert, key: ca.private };
}

/** A certificate signed by ca (1 year): a server's for `hosts` (loopback always included), or a client's. */
export async function issueCertificate(
  ca: CertificateAuthority,
  commonName: string,
  usage: { server: readonly string[] } | 'client',
  validity?: Validity,
): Promise<{ cert: string; key: string }> {
  const leaf = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    ...(validity ? { notBeforeDate: validity.notBefore } : {}),
    notAfterDate: validity?.notAfter ?? yearsFromNow(1),
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      ...(usage === 'client'
        ? [{ name: 'extKeyUsage' as const, clientAuth: true }]
        : [{ name: 'extKeyUsage' as const, serverAuth: true }, { name: 'subjectAltName' as const, altNames: subjectAltNames(usage.server) }]),
    ],
  });
  return { cert: leaf.cert, key: leaf.private };
}

/** A new CA and a certificate for `hosts` (DNS names or IPs) signed by it. */
export async function generateWebhookCertificates(hosts: readonly string[], commonName = 'bosun-webhook'): Promise<WebhookCertificates> {
  const ca = await generateCertificateAuthority(`${commonName}-ca`);
  const leaf = await issueCertificate(ca, commonName, { server: hosts });
  return { cert: leaf.cert, key: leaf.key, caBundle: ca.cert };
}
