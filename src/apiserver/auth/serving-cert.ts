// The TLS serving certificate. kubectl never sends a bearer token over plain http, so `bosun up` serves https
// with a self-signed certificate (kept in the data dir) that the kubeconfig trusts as its CA.
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface ServingCert {
  cert: string;
  key: string;
}

/** Pods reach the server through the kubernetes Service by these names, verifying it with kube-root-ca.crt. */
const IN_CLUSTER_NAMES = ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];

async function create(bind: string, serviceIPs: readonly string[]): Promise<ServingCert> {
  const names = new Set(['localhost', '127.0.0.1', '::1', bind, ...serviceIPs, ...IN_CLUSTER_NAMES]);
  const altNames = [...names]
    .filter((n) => n !== '0.0.0.0' && n !== '::')
    .map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n }));
  const notAfter = new Date();
  notAfter.setFullYear(notAfter.getFullYear() + 10);
  const pems = await generate([{ name: 'commonName', value: 'bosun-apiserver' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** Whether a kept certificate names every address pods may dial (a data dir from before the address was added does not). */
function coversAddresses(cert: string, ips: readonly string[]): boolean {
  const altNames = (new X509Certificate(cert).subjectAltName ?? '').split(', ');
  return ips.every((ip) => altNames.includes(`IP Address:${ip}`));
}

/**
 * Loads the data dir's certificate, or makes one (and keeps it there, the key 0600). `serviceIPs` are the
 * kubernetes Service's ClusterIPs (the service CIDR's first address), which in-cluster clients dial; a kept
 * certificate without them is made again (the kubeconfig trusts whatever the server serves).
 */
export async function loadOrCreateServingCert(dataDir: string | undefined, bind: string, serviceIPs: readonly string[] = []): Promise<ServingCert> {
  if (!dataDir) return create(bind, serviceIPs);
  const certPath = join(dataDir, 'serving.crt');
  const keyPath = join(dataDir, 'serving.key');
  if (existsSync(certPath) && existsSync(keyPath)) {
    const kept = { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
    if (coversAddresses(kept.cert, serviceIPs)) return kept;
  }
  const made = await create(bind, serviceIPs);
  writeFileSync(keyPath, made.key, { mode: 0o600 });
  writeFileSync(certPath, made.cert, { mode: 0o644 });
  return made;
}
