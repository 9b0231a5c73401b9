// The kubeconfig a Bosun command reads when it is given none.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultKubeconfig } from '../../src/client/default-kubeconfig.ts';

test('default kubeconfig: $KUBECONFIG, else ~/.kube/config (named even when missing and no bosun up is here)', () => {
  assert.equal(defaultKubeconfig({ KUBECONFIG: '/x/a:/x/b' }, '/tmp').path, '/x/a');
  assert.match(defaultKubeconfig({}, '/nonexistent-dir').path, /\.kube\/config$/);
});
