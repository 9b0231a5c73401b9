// `bosun blueprint render` on the example directory, and its error output.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';

const EXAMPLE = 'examples/landscaper/blueprint-render';

function bosun(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'blueprint', 'render', ...args], { encoding: 'utf8' });
}

describe('bosun blueprint render', () => {
  it('renders the example blueprint', () => {
    const r = bosun(EXAMPLE, '--imports', join(EXAMPLE, 'imports.yaml'));
    assert.equal(r.status, 0, r.stderr);
    const out = parse(r.stdout) as {
      deployItems: { name: string; type: string; target?: unknown; dependsOn?: string[]; config: { manifests?: { manifest: { metadata: { name: string } } }[] } }[];
      subinstallations: { name: string }[];
      exports: Record<string, unknown>;
    };
    assert.deepEqual(out.deployItems.map((d) => [d.name, d.type]), [
      ['config', 'landscaper.gardener.cloud/kubernetes-manifest'],
      ['smoke-test', 'landscaper.gardener.cloud/mock'],
    ]);
    assert.deepEqual(out.deployItems[0]!.target, { import: 'cluster' });
    assert.equal(out.deployItems[0]!.config.manifests![0]!.manifest.metadata.name, 'echo-config');
    assert.deepEqual(out.deployItems[1]!.dependsOn, ['config']);
    assert.deepEqual(out.subinstallations.map((s) => s.name), ['monitoring']);
    assert.deepEqual(out.exports, { configMapName: 'echo-config', endpoint: 'http://echo.demo.svc:8080' });
  });

  it('prints JSON with --output json', () => {
    const r = bosun(EXAMPLE, '--imports', join(EXAMPLE, 'imports.yaml'), '--output', 'json');
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { deployItems: unknown[] }).deployItems.length, 2);
  });

  it('fails with the import name when an import is invalid', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-bp-'));
    try {
      const file = join(dir, 'imports.yaml');
      writeFileSync(file, 'imports:\n  namespace: Not_A_DNS_Name\n');
      const r = bosun(EXAMPLE, '--imports', file);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^ImportValidationError: blueprint defines import "cluster" of type target, which is not satisfied/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The deployitem-dag README: "copy the inline `blueprint.yaml` into a directory and run `bosun blueprint render DIR`".
describe('the deployitem-dag README render instruction', () => {
  const DAG = 'examples/landscaper/deployitem-dag';

  it('renders the four deploy items of the diamond with the README command as written', () => {
    const readme = readFileSync(join(DAG, 'README.md'), 'utf8');
    assert.match(readme, /copy the inline `blueprint\.yaml` into a directory and\s+run `bosun blueprint render DIR`/);
    const installation = parse(readFileSync(join(DAG, 'installation.yaml'), 'utf8')) as { spec: { blueprint: { inline: { filesystem: Record<string, string> } } } };
    const dir = mkdtempSync(join(tmpdir(), 'bosun-dag-'));
    try {
      writeFileSync(join(dir, 'blueprint.yaml'), installation.spec.blueprint.inline.filesystem['blueprint.yaml']!);
      const r = bosun(dir);
      assert.equal(r.status, 0, r.stderr);
      const out = parse(r.stdout) as { deployItems: { name: string; dependsOn?: string[] }[]; exports: Record<string, unknown> };
      assert.deepEqual(out.deployItems.map((d) => [d.name, d.dependsOn ?? []]), [
        ['database', []],
        ['api', ['database']],
        ['worker', ['database']],
        ['frontend', ['api', 'worker']],
      ]);
      // Without a cluster no deploy item has exported anything yet: the collected map is empty, not missing.
      assert.deepEqual(out.exports, { endpoints: {} });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
