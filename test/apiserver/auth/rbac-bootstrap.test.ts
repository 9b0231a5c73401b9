// The bootstrap policy is put back at every start, as kube-apiserver's storage-rbac hook does: lost bootstrap rules
// return unless the role is annotated autoupdate "false", and what an operator added stays.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestServer } from '../../helpers/api-server.ts';

const path = (name: string) => `/apis/rbac.authorization.k8s.io/v1/clusterroles/${name}`;
const mergePatch = { 'content-type': 'application/merge-patch+json' };

test('a restart puts back lost bootstrap rules, keeps added ones, and leaves autoupdate "false" roles alone', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosun-rbac-bootstrap-'));
  let server = await startTestServer({ dataDir });
  const original = await server.json(path('system:basic-user'));
  const extra = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] };
  await server.json(path('system:basic-user'), { method: 'PATCH', headers: mergePatch, body: JSON.stringify({ rules: [extra] }) });
  await server.json(path('system:public-info-viewer'), {
    method: 'PATCH',
    headers: mergePatch,
    body: JSON.stringify({ metadata: { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }),
  });
  await server.json('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:discovery', { method: 'DELETE' });
  await server.close();

  server = await startTestServer({ dataDir });
  try {
    const basic = await server.json(path('system:basic-user'));
    assert.deepEqual(basic['rules'], [extra, ...original['rules']]);
    const info = await server.json(path('system:public-info-viewer'));
    assert.deepEqual(info['rules'], [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]);
    const discovery = await server.json('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:discovery');
    assert.deepEqual(discovery['subjects'], [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }]);
  } finally {
    await server.close();
  }
});
