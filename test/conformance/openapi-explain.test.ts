// Issue 14, finding 4: kubectl explain reads real schemas. Built-in kinds carry upstream's release-1.32 schemas,
// CRDs their own, in OpenAPI v3 (kubectl's default explain) and v2 (gnostic protobuf, --output=plaintext-openapiv2).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor } from '../helpers/kubectl.ts';

const installationCrd = parse(readFileSync(join(import.meta.dirname, '..', '..', 'crds', 'landscaper.gardener.cloud_installations.yaml'), 'utf8')) as KubeObject;

type Json = Record<string, any>;

describe('OpenAPI for kubectl explain', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ crds: [installationCrd] });
  });
  after(async () => {
    await server.close();
  });

  test('kubectl explain pods.spec describes PodSpec from OpenAPI v3', async () => {
    const r = await kubectlFor(server.kubeconfigFile)(['explain', 'pods.spec']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^KIND:\s+Pod$/m);
    assert.match(r.stdout, /^FIELD: spec <PodSpec>$/m);
    assert.match(r.stdout, /containers\s+<\[\]Container> -required-/);
  });

  test('kubectl explain installations --output=plaintext-openapiv2 reads the CRD schema from protobuf v2', async () => {
    const mark = server.mark();
    const r = await kubectlFor(server.kubeconfigFile)(['explain', 'installations', '--output=plaintext-openapiv2']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^KIND:\s+Installation$/m);
    assert.match(r.stdout, /^VERSION:\s+landscaper\.gardener\.cloud\/v1alpha1$/m);
    assert.match(r.stdout, /^\s+spec\s+<Object>/m);
    const v2 = server.since(mark).filter((e) => e.url.startsWith('/openapi/v2'));
    assert.ok(v2.length > 0, 'kubectl did not ask /openapi/v2');
    for (const e of v2) {
      assert.match(e.accept ?? '', /application\/com\.github\.proto-openapi\.spec\.v2@v1\.0\+protobuf/);
      assert.equal(e.status, 200);
    }
  });

  test('kubectl explain reaches nested CRD fields and built-in fields through v2 references', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const crd = await kubectl(['explain', 'installations.spec.blueprint', '--output=plaintext-openapiv2']);
    assert.equal(crd.code, 0, crd.stderr);
    assert.match(crd.stdout, /^RESOURCE:\s+blueprint <Object>$/m);
    assert.match(crd.stdout, /^\s+inline\t<Object>$/m);
    assert.match(crd.stdout, /^\s+ref\t<Object>$/m);
    const builtin = await kubectl(['explain', 'deployments.spec.template.spec.containers.image', '--output=plaintext-openapiv2']);
    assert.equal(builtin.code, 0, builtin.stderr);
    assert.match(builtin.stdout, /^FIELD:\s+image <string>$/m);
    assert.match(builtin.stdout, /Container image name/);
    // Maps travel as additionalProperties.
    const configMaps = await kubectl(['explain', 'configmaps', '--output=plaintext-openapiv2']);
    assert.equal(configMaps.code, 0, configMaps.stderr);
    assert.match(configMaps.stdout, /^\s+data\t<map\[string\]string>$/m);
  });

  test('/openapi/v2 as JSON: upstream definitions, CRD schemas with ObjectMeta, PATCH declaring fieldValidation', async () => {
    const doc = await server.json<Json>('/openapi/v2');
    assert.equal(doc['swagger'], '2.0');
    const pod = doc['definitions']['io.k8s.api.core.v1.Pod'];
    assert.deepEqual(pod['x-kubernetes-group-version-kind'], [{ group: '', kind: 'Pod', version: 'v1' }]);
    assert.equal(pod['properties']['spec']['$ref'], '#/definitions/io.k8s.api.core.v1.PodSpec');
    assert.ok(doc['definitions']['io.k8s.api.core.v1.PodSpec'], 'referenced definitions are included');
    const installation = doc['definitions']['cloud.gardener.landscaper.v1alpha1.Installation'];
    assert.deepEqual(installation['x-kubernetes-group-version-kind'], [{ group: 'landscaper.gardener.cloud', version: 'v1alpha1', kind: 'Installation' }]);
    assert.equal(installation['properties']['metadata']['$ref'], '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    const patch = doc['paths']['/api/v1/namespaces/{namespace}/pods/{name}']['patch'];
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: '', version: 'v1', kind: 'Pod' });
    assert.ok((patch['parameters'] as Json[]).some((p) => p['name'] === 'fieldValidation'));
    // Only the verbs a type serves: reviews are create-only.
    assert.deepEqual(Object.keys(doc['paths']['/apis/authentication.k8s.io/v1/selfsubjectreviews']), ['post']);
  });

  test('/openapi/v3 group-version documents carry the schemas their paths reference', async () => {
    const root = await server.json<{ paths: Record<string, { serverRelativeURL: string }> }>('/openapi/v3');
    const core = await server.json<Json>(root.paths['api/v1']!.serverRelativeURL);
    const schemas = core['components']['schemas'] as Json;
    assert.equal(schemas['io.k8s.api.core.v1.Pod']['properties']['spec']['$ref'], '#/components/schemas/io.k8s.api.core.v1.PodSpec');
    assert.ok(schemas['io.k8s.api.core.v1.Container']);
    assert.doesNotMatch(JSON.stringify(core), /#\/definitions\//);
    const apps = await server.json<Json>(root.paths['apis/apps/v1']!.serverRelativeURL);
    assert.ok(apps['components']['schemas']['io.k8s.api.apps.v1.Deployment']);
    assert.equal(apps['components']['schemas']['io.k8s.api.core.v1.Pod'], undefined, 'a document holds only what its kinds reach');
  });
});
