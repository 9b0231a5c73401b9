// The kubeconfig a Bosun command reads when it is given none.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultKubeconfigPath } from '../../src/client/default-kubeconfig.ts';

test('default kubeconfig: $KUBECONFIG, else ./.bosun/kubeconfig if present, else ~/.kube/config', () => {
  assert.equal(defaultKubeconfigPath({ KUBECONFIG: '/x/a:/x/b' }, '/tmp'), '/x/a');
  assert.match(defaultKubeconfigPath({}, '/nonexistent-dir'), /\.kube\/config$/);
});
