// The API server's serving certificate names what in-cluster clients dial: the kubernetes Service's ClusterIP and
// kubernetes.default.svc; a certificate kept in a data dir from before the ClusterIP was added is made again.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadOrCreateServingCert } from '../../../src/apiserver/auth/serving-cert.ts';

const altNames = (cert: string): string[] => (new X509Certificate(cert).subjectAltName ?? '').split(', ');

test('the serving certificate carries the kubernetes Service ClusterIP and names; an old one without them is replaced', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-serving-cert-'));
  try {
    const old = await loadOrCreateServingCert(dir, '127.0.0.1');
    assert.equal(altNames(old.cert).includes('IP Address:10.96.0.1'), false);

    const made = await loadOrCreateServingCert(dir, '127.0.0.1', ['10.96.0.1']);
    assert.notEqual(made.cert, old.cert);
    for (const name of ['IP Address:10.96.0.1', 'DNS:kubernetes.default.svc', 'DNS:kubernetes.default.svc.cluster.local', 'IP Address:127.0.0.1']) {
      assert.ok(altNames(made.cert).includes(name), `${name} in ${altNames(made.cert).join(', ')}`);
    }
    // Kept across restarts once it covers the address.
    assert.equal((await loadOrCreateServingCert(dir, '127.0.0.1', ['10.96.0.1'])).cert, made.cert);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
