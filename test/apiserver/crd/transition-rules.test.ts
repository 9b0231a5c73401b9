// Transition rules (oldSelf) and ratcheting of x-kubernetes-validations on update, through the real embedded API
// server over HTTP (issue 14, finding 7): kube-apiserver evaluates rules that use oldSelf only on update and only
// where an old value exists at that path (always, as an optional, with optionalOldSelf), and a rule that fails on
// an unchanged value does not block the update.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const VAULTS = '/apis/example.com/v1/namespaces/default/vaults';

function crd(sizeRules: unknown[]): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'vaults.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'vaults', singular: 'vault', kind: 'Vault', listKind: 'VaultList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    region: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'region is immutable' }] },
                    replicas: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'replicas may not decrease' }] },
                    label: {
                      type: 'string',
                      'x-kubernetes-validations': [
                        { rule: 'oldSelf.hasValue() || self.startsWith("new-")', optionalOldSelf: true, message: 'a new label starts with new-' },
                      ],
                    },
                    size: { type: 'integer', 'x-kubernetes-validations': sizeRules },
                    ports: {
                      type: 'array',
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: {
                        type: 'object',
                        required: ['name'],
                        properties: {
                          name: { type: 'string' },
                          port: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'port is immutable' }] },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

const vault = (spec: Record<string, unknown>, resourceVersion?: string): string =>
  JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Vault', metadata: { name: 'v1', ...(resourceVersion ? { resourceVersion } : {}) }, spec });

describe('x-kubernetes-validations transition rules over HTTP', () => {
  let server: TestServer;
  const json = { 'content-type': 'application/json' };

  /** PUT spec over the stored object; the answer's status and its causes as "field: message". */
  async function update(spec: Record<string, unknown>): Promise<{ status: number; causes: string[] }> {
    const current = await server.json<KubeObject>(`${VAULTS}/v1`);
    const res = await server.api(`${VAULTS}/v1`, { method: 'PUT', headers: json, body: vault(spec, current.metadata.resourceVersion) });
    const body = (await res.json()) as { details?: { causes?: { field?: string; message?: string }[] } };
    return { status: res.status, causes: (body.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`) };
  }

  before(async () => {
    server = await startTestServer();
    await server.json(CRD_PATH, { method: 'POST', headers: json, body: JSON.stringify(crd([])), expect: 201 });
  });
  after(async () => {
    await server.close();
  });

  test('create runs no plain transition rule, but an optionalOldSelf rule with oldSelf none', async () => {
    const refused = await server.api(VAULTS, { method: 'POST', headers: json, body: vault({ region: 'eu', label: 'old-style' }) });
    assert.equal(refused.status, 422);
    const body = (await refused.json()) as { message: string };
    assert.equal(body.message, 'Vault.example.com "v1" is invalid: spec.label: Invalid value: "string": a new label starts with new-');
    await server.json(VAULTS, {
      method: 'POST',
      headers: json,
      body: vault({ region: 'eu', replicas: 3, label: 'new-a', size: 7, ports: [{ name: 'http', port: 80 }] }),
      expect: 201,
    });
  });

  test('an immutable field (self == oldSelf) refuses a change and accepts the same value', async () => {
    assert.deepEqual(await update({ region: 'us', replicas: 3, label: 'new-a', size: 7, ports: [{ name: 'http', port: 80 }] }), {
      status: 422,
      causes: ['spec.region: Invalid value: "string": region is immutable'],
    });
    const same = await update({ region: 'eu', replicas: 4, label: 'new-a', size: 7, ports: [{ name: 'http', port: 80 }] });
    assert.equal(same.status, 200, same.causes.join('; '));
    assert.deepEqual(await update({ region: 'eu', replicas: 2, label: 'new-a', size: 7, ports: [{ name: 'http', port: 80 }] }), {
      status: 422,
      causes: ['spec.replicas: Invalid value: "integer": replicas may not decrease'],
    });
  });

  test('a field added on update has no old value: plain transition rules skip it, optionalOldSelf ones see none', async () => {
    const removed = await update({ region: 'eu', replicas: 4, size: 7, ports: [{ name: 'http', port: 80 }] });
    assert.equal(removed.status, 200, removed.causes.join('; '));
    assert.deepEqual(await update({ region: 'eu', replicas: 4, label: 'again', size: 7, ports: [{ name: 'http', port: 80 }] }), {
      status: 422,
      causes: ['spec.label: Invalid value: "string": a new label starts with new-'],
    });
    const added = await update({ region: 'eu', replicas: 4, label: 'new-b', size: 7, ports: [{ name: 'http', port: 80 }] });
    assert.equal(added.status, 200, added.causes.join('; '));
  });

  test('list-type=map entries correlate by key: a moved entry keeps its old value, a new key has none', async () => {
    const reordered = await update({ region: 'eu', replicas: 4, size: 7, ports: [{ name: 'grpc', port: 9000 }, { name: 'http', port: 80 }] });
    assert.equal(reordered.status, 200, reordered.causes.join('; '));
    assert.deepEqual(await update({ region: 'eu', replicas: 4, size: 7, ports: [{ name: 'http', port: 8080 }, { name: 'grpc', port: 9000 }] }), {
      status: 422,
      causes: ['spec.ports[0].port: Invalid value: "integer": port is immutable'],
    });
  });

  test('ratcheting: a tightened rule does not block updates that leave the failing field unchanged', async () => {
    const stored = await server.json<KubeObject>(`${CRD_PATH}/vaults.example.com`);
    const tightened = { ...crd([{ rule: 'self <= 5', message: 'size must be at most 5' }]), metadata: stored.metadata };
    await server.json(`${CRD_PATH}/vaults.example.com`, { method: 'PUT', headers: json, body: JSON.stringify(tightened) });
    const unchanged = await update({ region: 'eu', replicas: 5, size: 7, ports: [{ name: 'grpc', port: 9000 }, { name: 'http', port: 80 }] });
    assert.equal(unchanged.status, 200, unchanged.causes.join('; '));
    assert.deepEqual(await update({ region: 'eu', replicas: 5, size: 8, ports: [{ name: 'grpc', port: 9000 }, { name: 'http', port: 80 }] }), {
      status: 422,
      causes: ['spec.size: Invalid value: "integer": size must be at most 5'],
    });
    const fixed = await update({ region: 'eu', replicas: 5, size: 5, ports: [{ name: 'grpc', port: 9000 }, { name: 'http', port: 80 }] });
    assert.equal(fixed.status, 200, fixed.causes.join('; '));
  });
});
