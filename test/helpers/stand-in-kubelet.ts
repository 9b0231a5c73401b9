// A kubelet stand-in for tests that run no node agent: it speaks the kubelet API's TLS and checks the client
// certificate (src/node/kubelet-api/kubelet-pki.ts), so the API server's pods/log proxy runs as it does against a
// real node agent. One PKI per test process, made in a temporary directory.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadOrCreateKubeletPki, type KubeletPki } from '../../src/node/kubelet-api/kubelet-pki.ts';
import { tempDirRemovedAtExit } from './temp-dir.ts';

let pki: Promise<KubeletPki> | undefined;

function testPki(): Promise<KubeletPki> {
  pki ??= loadOrCreateKubeletPki(tempDirRemovedAtExit('bosun-kubelet-pki-'));
  return pki;
}

/** The API server's `kubeletClient` option for reaching stand-in kubelets. */
export async function standInKubeletClient(): Promise<{ cert: string; key: string; ca: string }> {
  const { apiserverClient, ca } = await testPki();
  return { cert: apiserverClient.cert, key: apiserverClient.key, ca };
}

export interface StandInKubelet {
  port: number;
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1 over TLS, to clients with a certificate of the test CA only. */
export async function startStandInKubelet(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<StandInKubelet> {
  const { kubelet, ca } = await testPki();
  const server = createServer({ cert: kubelet.cert, key: kubelet.key, ca, requestCert: true, rejectUnauthorized: true }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
