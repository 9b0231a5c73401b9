// Garbage collection of a dependent whose owner is of a kind the server does not serve: kube's collector
// cannot map such an owner, so it is unknown, not absent, and the dependent stays; once the kind is served
// the owner resolves as any other (absent: collected; present: kept).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { widgetCrd } from '../helpers/widget-crd.ts';

const configMaps = '/api/v1/namespaces/default/configmaps';

interface Owner {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

async function dependent(server: TestServer, name: string, owner: Owner): Promise<void> {
  await server.json(configMaps, { method: 'POST', body: JSON.stringify({ metadata: { name, ownerReferences: [owner] } }), expect: 201 });
}

/** A watch on the ConfigMaps from now on: resolves with the names of the next deletions, in order. */
async function deletions(server: TestServer): Promise<() => Promise<string>> {
  const res = await server.api(`${configMaps}?watch=1&resourceVersion=${server.store.currentRevision}`);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  return async () => {
    for (;;) {
      const nl = buffered.indexOf('\n');
      if (nl >= 0) {
        const event = JSON.parse(buffered.slice(0, nl)) as { type: string; object: { metadata: { name: string } } };
        buffered = buffered.slice(nl + 1);
        if (event.type === 'DELETED') return event.object.metadata.name;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the watch ended');
      buffered += value;
    }
  };
}

test('a dependent whose owner is of an unserved kind is kept until the kind is served, then collected as usual', async () => {
  const logged: string[] = [];
  const server = await startTestServer({ onError: (error) => logged.push(String(error)) });
  try {
    const nextDeletion = await deletions(server);
    // Owners that cannot be resolved: a kind Bosun does not serve and a CRD not installed yet.
    await dependent(server, 'of-flowschema', { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', name: 'nightly', uid: 'flowschema-uid' });
    await dependent(server, 'of-widget', { apiVersion: 'example.com/v1', kind: 'Widget', name: 'gone', uid: 'widget-uid' });
    // The collector works in order: once this one (an absent owner of a served kind) is collected, it has
    // looked at the two before it.
    await dependent(server, 'of-absent-secret', { apiVersion: 'v1', kind: 'Secret', name: 'gone', uid: 'secret-uid' });
    assert.equal(await nextDeletion(), 'of-absent-secret');
    for (const name of ['of-flowschema', 'of-widget']) assert.equal((await server.api(`${configMaps}/${name}`)).status, 200, `${name} is kept`);
    assert.ok(logged.some((line) => line.includes('keeping ConfigMap default/of-flowschema: its owner FlowSchema "nightly" (flowcontrol.apiserver.k8s.io/v1) is of a kind this server does not serve')), logged.join('\n'));

    // The Widget kind is served now: that owner is absent, so its dependent goes.
    await server.json('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', body: JSON.stringify(widgetCrd()), expect: 201 });
    assert.equal(await nextDeletion(), 'of-widget');
    // A present owner of that kind keeps its dependent.
    const widget = await server.json<{ metadata: { uid: string } }>('/apis/example.com/v1/namespaces/default/widgets', {
      method: 'POST',
      body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'present' } }),
      expect: 201,
    });
    await dependent(server, 'of-present-widget', { apiVersion: 'example.com/v1', kind: 'Widget', name: 'present', uid: widget.metadata.uid });
    await dependent(server, 'of-absent-secret-2', { apiVersion: 'v1', kind: 'Secret', name: 'gone', uid: 'secret-uid-2' });
    assert.equal(await nextDeletion(), 'of-absent-secret-2');
    assert.equal((await server.api(`${configMaps}/of-present-widget`)).status, 200);
    assert.equal((await server.api(`${configMaps}/of-flowschema`)).status, 200);
  } finally {
    await server.close();
  }
});
