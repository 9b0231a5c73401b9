// Upstream naming of DataObjects, Targets and template-state Secrets; expected values computed
// independently (Python: base64.b32encode(sha1(s)).lower().rstrip("=")).
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  dataObjectLabels,
  encodeDataObjectData,
  executionExportDataObjectName,
  generateDataObjectName,
  generateDataObjectNameWithIndex,
  installationScopeContext,
  templateStateSecretName,
} from '../../src/landscaper/naming.ts';

describe('naming', () => {
  it('GenerateDataObjectName: #-names, root DNS names, hashed otherwise', () => {
    assert.equal(generateDataObjectName('Inst.parent', '#raw-name'), 'raw-name');
    assert.equal(generateDataObjectName('', 'my-data'), 'my-data');
    assert.equal(generateDataObjectName('', 'My_Data'), '2c24ryme6m5qp5aszryypwakbpibkrh2');
    assert.equal(generateDataObjectName('Inst.parent', 'config'), 'x4mablpv2vk4bb2jofh7jorhhed2vr3h');
    assert.equal(generateDataObjectNameWithIndex('Inst.root', 'clusters', 1), 'a2affaz556hcu5s4agxf7b3fulfdcazg');
    assert.equal(executionExportDataObjectName('my-inst'), '6xorxzpswfiyuidgl7d5o5oqp2xbr6tx');
    assert.equal(installationScopeContext(undefined), '');
    assert.equal(installationScopeContext('parent'), 'Inst.parent');
  });

  it('template state Secret names', () => {
    assert.equal(templateStateSecretName('my-inst', 'deploy', 'main'), 'piztxhxho6bqllhze62pnt2lsxr3wxw5');
    assert.equal(templateStateSecretName('my-inst', 'export', 'exports'), 'qz27kgm5dy4cyrxnqoc5gtfnflabamrh');
  });

  it('labels and the data hash of Go json.MarshalIndent', () => {
    assert.deepEqual(dataObjectLabels({ context: 'Inst.a', sourceType: 'export', source: 'Inst.b', key: 'k', index: 0, jobID: 'j' }), {
      'data.landscaper.gardener.cloud/context': 'Inst.a',
      'data.landscaper.gardener.cloud/sourceType': 'export',
      'data.landscaper.gardener.cloud/source': 'Inst.b',
      'data.landscaper.gardener.cloud/key': 'k',
      'data.landscaper.gardener.cloud/index': '0',
      'data.landscaper.gardener.cloud/jobid': 'j',
    });
    assert.deepEqual(dataObjectLabels({ context: '' }), {});
    const enc = encodeDataObjectData({ b: [1, 2.5, '<x>'], a: {} });
    assert.equal(enc.raw, '{\n  "a": {},\n  "b": [\n    1,\n    2.5,\n    "\\u003cx\\u003e"\n  ]\n}');
    assert.deepEqual(enc.annotations, { 'data.landscaper.gardener.cloud/hash': '8912cdb81040a7ce35821dc893a05a42634b3879' });
  });
});
