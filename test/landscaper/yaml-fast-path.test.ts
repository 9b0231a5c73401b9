// The plain-block fast path must give exactly what the full go-yaml-style parse gives, on the project's YAML
// test data and on YAML 1.1 cases it must hand over to the full parser.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EXECUTION_OUTPUT_SHAPES } from '../../src/landscaper/templating/output-shapes.ts';
import { parseYaml, parseYamlFully } from '../../src/landscaper/yaml.ts';
import { parsePlainBlockYaml } from '../../src/landscaper/yaml-fast-path.ts';

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

function outcome(parse: () => unknown): unknown {
  try {
    return { value: parse() };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function assertSame(text: string, label: string): boolean {
  for (const shape of [undefined, ...Object.values(EXECUTION_OUTPUT_SHAPES)]) {
    assert.deepStrictEqual(outcome(() => parseYaml(text, shape)), outcome(() => parseYamlFully(text, shape)), label);
  }
  return parsePlainBlockYaml(text) !== undefined;
}

const CASES = [
  'deployItems:\n  - name: a\n    type: landscaper.gardener.cloud/mock\n    dependsOn:\n      - b\n      - c\n    config:\n      apiVersion: v1\n      kind: X\n',
  'a:\n- p\n- q\nb: z\n',
  'a:\nb: c\n',
  'a: yes\nb: no\nc: on\nd: off\ne: Y\nf: n\ng: True\nh: NULL\ni: ~\n',
  'y: a\nOn: b\n',
  'a: 010\nb: 0o10\nc: 0x1F\nd: 1_000\ne: 1:30\nf: .inf\ng: -.Inf\nh: .NaN\ni: 1e3\nj: 2001-12-14\n',
  'base: &b\n  x: one\nm:\n  <<: *b\n  y: two\n',
  'a: b\na: c\n',
  'a: "quoted"\nb: \'single\'\n',
  'a: b # comment\n',
  'a: [x, y]\nb: {c: d}\n',
  'a: !!str yes\n',
  'a: multi\n  line\n',
  'a: |\n  block\n',
  '- a\n- - b\n',
  '---\na: b\n',
  '  a: b\n',
  'a:\n\tb: c\n',
  'a: b\r\nc: d\r\n',
  'a: b \n',
  'a:b\n',
  '- a: b\n  c: d\n- e\n',
  '- a: b\n   c: d\n',
  'a:\n  - b\n   c\n',
  '',
  'just-a-word\n',
  '__proto__: x\n',
];

describe('plain-block YAML fast path', () => {
  it('agrees with the full parse on YAML 1.1 edge cases', () => {
    let fast = 0;
    for (const text of CASES) if (assertSame(text, JSON.stringify(text))) fast++;
    assert.ok(fast >= 4, `fast path taken ${fast} times`);
  });

  it('agrees with the full parse on the landscaper and template test data', () => {
    const files = [...yamlFiles('test/landscaper'), ...yamlFiles('test/template')];
    assert.ok(files.length > 100);
    let fast = 0;
    for (const f of files) if (assertSame(readFileSync(f, 'utf8'), f)) fast++;
    assert.ok(fast > 0, 'no test file took the fast path');
  });

  it('takes the fast path on a layered deploy-item list', () => {
    const lines = ['deployItems:'];
    for (let l = 0; l < 3; l++) {
      for (let i = 0; i < 3; i++) {
        lines.push(`  - name: l${l}-i${i}`, '    type: landscaper.gardener.cloud/mock');
        if (l > 0) lines.push('    dependsOn:', ...[0, 1, 2].map((p) => `      - l${l - 1}-i${p}`));
        lines.push('    config:', '      apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1', '      kind: ProviderConfiguration');
      }
    }
    const text = lines.join('\n') + '\n';
    assert.notEqual(parsePlainBlockYaml(text), undefined);
    assertSame(text, 'layered list');
  });
});
