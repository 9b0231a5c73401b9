// The kubelet API's certificates, as kube-apiserver and kubelet use them: a CA of their own, the kubelet's
// serving certificate (for loopback, where Bosun's kubelets listen), and the API server's client certificate
// (kube-apiserver's --kubelet-client-certificate), which the kubelet API checks against the CA. No bearer
// token crosses this channel, so a pod on the host network that reads loopback traffic learns nothing it can use.
// Kept 0600 in a 0700 directory of the data dir, made once and reused, so that `bosun node` can join.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCertificateAuthority, issueCertificate } from '../../runtime/index.ts';

export interface KeyPair {
  cert: string;
  key: string;
}

export interface KubeletPki {
  /** PEM of the CA: the API server verifies the kubelet's certificate with it, the kubelet the API server's. */
  ca: string;
  /** What the kubelet API serves. */
  kubelet: KeyPair;
  /** What the API server presents to kubelets. */
  apiserverClient: KeyPair;
}

const FILES = {
  ca: ['ca.crt', 'ca.key'],
  kubelet: ['kubelet.crt', 'kubelet.key'],
  apiserverClient: ['apiserver-kubelet-client.crt', 'apiserver-kubelet-client.key'],
} as const;

async function readPair([certFile, keyFile]: readonly [string, string], dir: string): Promise<KeyPair> {
  const [cert, key] = await Promise.all([readFile(join(dir, certFile), 'utf8'), readFile(join(dir, keyFile), 'utf8')]);
  return { cert, key };
}

async function writePair([certFile, keyFile]: readonly [string, string], dir: string, pair: KeyPair): Promise<void> {
  await Promise.all([writeFile(join(dir, certFile), pair.cert, { mode: 0o600 }), writeFile(join(dir, keyFile), pair.key, { mode: 0o600 })]);
}

/** Reads the PKI from dir (what `bosun node` does with the `bosun up` data dir's). */
export async function readKubeletPki(dir: string): Promise<KubeletPki> {
  const [ca, kubelet, apiserverClient] = await Promise.all([readPair(FILES.ca, dir), readPair(FILES.kubelet, dir), readPair(FILES.apiserverClient, dir)]);
  return { ca: ca.cert, kubelet, apiserverClient };
}

export async function loadOrCreateKubeletPki(dir: string): Promise<KubeletPki> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  try {
    return await readKubeletPki(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const ca = await generateCertificateAuthority('bosun-kubelet-ca');
  const [kubelet, apiserverClient] = await Promise.all([issueCertificate(ca, 'bosun-kubelet', { server: [] }), issueCertificate(ca, 'kube-apiserver-kubelet-client', 'client')]);
  await Promise.all([writePair(FILES.ca, dir, ca), writePair(FILES.kubelet, dir, kubelet), writePair(FILES.apiserverClient, dir, apiserverClient)]);
  return { ca: ca.cert, kubelet, apiserverClient };
}
