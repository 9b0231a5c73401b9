// Issue 22's service account identity with real kubectl against `bosun up`: `kubectl create token` and the token
// authenticating, a forged token and a missing ServiceAccount refused, a pod reading its projected token,
// namespace and CA and calling the API server through the kubernetes Service with them, --token-auth-file users.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

describe('service account tokens on bosun up', () => {
  let up: BosunUp;
  before(async () => {
    const tokenFile = join(mkdtempSync(join(tmpdir(), 'bosun-token-file-')), 'tokens.csv');
    writeFileSync(tokenFile, 'jane-token-0123456789,jane,1001,"dev,ops"\n');
    up = await startBosunUp(['--token-auth-file', tokenFile]);
    await up.ok(['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods']);
    await up.ok(['create', 'rolebinding', 'default-reads-pods', '--role=pod-reader', '--serviceaccount=default:default']);
  });
  after(async () => {
    await up.close();
  });

  test('kubectl create token default authenticates; a forged token is 401, a missing ServiceAccount 404', { timeout: 60_000 }, async () => {
    const token = (await up.ok(['create', 'token', 'default', '--duration=15m'])).trim();
    const whoami = await up.ok(['auth', 'whoami', '--token', token, '-o', 'jsonpath={.status.userInfo.username}']);
    assert.equal(whoami, 'system:serviceaccount:default:default');
    // RBAC: the ServiceAccount may list pods (its Role, bound in before()) and nothing else.
    await up.ok(['get', 'pods', '--token', token]);
    const secrets = await up.kubectl(['get', 'secrets', '--token', token]);
    assert.match(secrets.stderr, /User "system:serviceaccount:default:default" cannot list resource "secrets" in API group "" in the namespace "default"/);
    const [header, claims] = token.split('.');
    const forged = `${header}.${claims}.${Buffer.from('not the signature').toString('base64url')}`;
    const refused = await up.kubectl(['get', 'pods', '--token', forged]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Unauthorized|asked for the client to provide credentials/);
    const missing = await up.kubectl(['create', 'token', 'nobody']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /serviceaccounts "nobody" not found/);
  });

  test('a pod reads its projected token, namespace and CA and lists pods through the kubernetes Service', { timeout: 120_000 }, async () => {
    await up.ok(['run', 'reader', '--image=busybox', '--restart=Never', '--', 'sleep', '3600']);
    await up.ok(['wait', '--for=condition=Ready', 'pod/reader', '--timeout=60s']);
    const spec = JSON.parse(await up.ok(['get', 'pod', 'reader', '-o', 'json'])) as { spec: { serviceAccountName: string; volumes: { name: string }[] } };
    assert.equal(spec.spec.serviceAccountName, 'default');
    assert.ok(spec.spec.volumes.some((v) => v.name.startsWith('kube-api-access-')));
    assert.equal(await up.ok(['exec', 'reader', '--', 'cat', `${MOUNT}/namespace`]), 'default');
    assert.equal(await up.ok(['exec', 'reader', '--', 'cat', `${MOUNT}/ca.crt`]), readFileSync(join(up.dataDir, 'serving.crt'), 'utf8'));
    const token = await up.ok(['exec', 'reader', '--', 'cat', `${MOUNT}/token`]);
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number; iat: number; 'kubernetes.io': { pod: { name: string } } };
    assert.equal(claims['kubernetes.io'].pod.name, 'reader');
    assert.equal(claims.exp - claims.iat, 3607);
    const script = `wget -qO- -T 10 --header "Authorization: Bearer $(cat ${MOUNT}/token)" --ca-certificate ${MOUNT}/ca.crt https://kubernetes.default.svc/api/v1/namespaces/default/pods`;
    const list = JSON.parse(await up.ok(['exec', 'reader', '--', 'sh', '-c', script])) as { kind: string; items: { metadata: { name: string } }[] };
    assert.equal(list.kind, 'PodList');
    assert.ok(list.items.some((p) => p.metadata.name === 'reader'));
  });

  test('a --token-auth-file user authenticates', { timeout: 60_000 }, async () => {
    const groups = await up.ok(['auth', 'whoami', '--token', 'jane-token-0123456789', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}']);
    assert.equal(groups, 'jane ["dev","ops","system:authenticated"]');
  });
});
