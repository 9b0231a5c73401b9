// --token-auth-file: kube-apiserver's static token CSV, its users authenticating with real kubectl.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTokenFile } from '../../../src/apiserver/auth/token-file.ts';
import { startTestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';

const dir = mkdtempSync(join(tmpdir(), 'bosun-token-file-'));
function file(content: string): string {
  const path = join(dir, `tokens-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, content);
  return path;
}

test('records: groups quoted with commas, quotes escaped, empty tokens skipped, system:authenticated added', () => {
  const users = readTokenFile(file('t1,jane,u1,"dev,ops"\n\n t2,"bob ""the"" builder",u2\n,skipped,u3\r\nt3,amy,u4,system:authenticated\n'));
  assert.deepEqual(Object.fromEntries(users), {
    t1: { username: 'jane', uid: 'u1', groups: ['dev', 'ops', 'system:authenticated'] },
    t2: { username: 'bob "the" builder', uid: 'u2', groups: ['system:authenticated'] },
    t3: { username: 'amy', uid: 'u4', groups: ['system:authenticated'] },
  });
});

test('a record of fewer than 3 columns fails the start in kube-apiserver words', async () => {
  const path = file('t1,jane\n');
  await assert.rejects(startTestServer({ tokenAuthFile: path }), { message: `token file '${path}' must have at least 3 columns (token, user name, user uid), found 2` });
});

test('its users authenticate with kubectl --token; other tokens stay 401', async () => {
  const server = await startTestServer({ tokenAuthFile: file('jane-secret-token,jane,1001,"dev,ops"\n') });
  try {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const whoami = await kubectl(['auth', 'whoami', '--token', 'jane-secret-token', '-o', 'json']);
    assert.equal(whoami.code, 0, whoami.stderr);
    assert.deepEqual((JSON.parse(whoami.stdout) as { status: { userInfo: unknown } }).status.userInfo, { username: 'jane', uid: '1001', groups: ['dev', 'ops', 'system:authenticated'] });
    const refused = await kubectl(['get', 'pods', '--token', 'jane-secret-tokem']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Unauthorized|asked for the client to provide credentials/);
  } finally {
    await server.close();
  }
});
