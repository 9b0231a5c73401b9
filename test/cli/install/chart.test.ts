// The committed Helm chart is what scripts/generate-chart.ts makes from `bosun manifests`, and with its default
// values it stands for exactly what `bosun manifests` prints.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { chartFiles } from '../../../scripts/generate-chart.ts';
import { renderInstallManifests } from '../../../src/cli/commands/manifests.ts';
import { selectFamilies } from '../../../src/cli/families.ts';
import { DEFAULT_INSTALL } from '../../../src/cli/install/install-objects.ts';

const chartDir = join(import.meta.dirname, '..', '..', '..', 'deploy', 'chart');

void test('deploy/chart is what scripts/generate-chart.ts generates (run it after changing the install)', () => {
  for (const [path, text] of Object.entries(chartFiles())) assert.equal(readFileSync(join(chartDir, path), 'utf8'), text, path);
});

void test("the chart's template with its default values is what bosun manifests prints", () => {
  const values = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) as { namespace: string; image: string };
  assert.deepEqual(values, { namespace: DEFAULT_INSTALL.namespace, image: DEFAULT_INSTALL.image });
  const template = readFileSync(join(chartDir, 'templates', 'install.yaml'), 'utf8');
  // The only template expressions are the two values (no CRD text is taken for one).
  assert.deepEqual([...new Set(template.match(/\{\{[^}]*\}\}/g))].sort(), ['{{ .Values.image }}', '{{ .Values.namespace }}']);
  const rendered = template.replace(/^#.*\n/, '').replaceAll('{{ .Values.namespace }}', values.namespace).replaceAll('{{ .Values.image }}', values.image);
  assert.equal(rendered, renderInstallManifests(selectFamilies(undefined), DEFAULT_INSTALL));
});
