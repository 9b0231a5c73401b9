// The TLS serving certificate. kubectl never sends a bearer token over plain http, so `bosun up` serves https
// with a self-signed certificate (kept in the data dir) that the kubeconfig trusts as its CA.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface ServingCert {
  cert: string;
  key: string;
}

async function create(bind: string): Promise<ServingCert> {
  // Pods reach the server through the kubernetes Service by these names, verifying it with kube-root-ca.crt.
  const names = new Set(['localhost', '127.0.0.1', '::1', bind, 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local']);
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

/** Loads the data dir's certificate, or makes one (and keeps it there, the key 0600). */
export async function loadOrCreateServingCert(dataDir: string | undefined, bind: string): Promise<ServingCert> {
  if (!dataDir) return create(bind);
  const certPath = join(dataDir, 'serving.crt');
  const keyPath = join(dataDir, 'serving.key');
  if (existsSync(certPath) && existsSync(keyPath)) return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
  const made = await create(bind);
  writeFileSync(keyPath, made.key, { mode: 0o600 });
  writeFileSync(certPath, made.cert, { mode: 0o644 });
  return made;
}
