// Checks the TypeScript engine against every golden case rendered by the real Go text/template +
// sprig (scripts/template-golden/generate.ts). No Go needed here.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GoldenFile } from '../../scripts/template-golden/lib/case.ts';
import { renderCase } from './golden-render.ts';

// The reference ran with TZ=UTC; sprig's date functions use the local zone.
process.env.TZ = 'UTC';

const dir = join(import.meta.dirname, '..', 'golden', 'template');
const defaultData = JSON.parse(readFileSync(join(dir, 'default-data.json'), 'utf8')) as unknown;
const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'default-data.json').sort();

let total = 0;
for (const file of files) {
  const golden = JSON.parse(readFileSync(join(dir, file), 'utf8')) as GoldenFile;
  total += golden.cases.length;
  describe(`golden ${golden.group}`, () => {
    for (const c of golden.cases) {
      const title = `${c.id}: ${JSON.stringify(c.template).slice(0, 80)}`;
      it(title, () => {
        const res = renderCase({ template: c.template, data: c.data ?? defaultData, files: c.files, name: c.name });
        const exp = c.expect;
        if ('output' in exp) {
          assert.ok('output' in res, `expected output ${JSON.stringify(exp.output)}, got error ${'error' in res ? res.error : ''}`);
          assert.equal(res.output, exp.output);
        } else if ('pattern' in exp) {
          assert.ok('output' in res, `expected output matching ${exp.pattern}, got error ${'error' in res ? res.error : ''}`);
          assert.match(res.output, new RegExp(exp.pattern));
        } else {
          assert.ok('error' in res, `expected error ${JSON.stringify(exp.error)}, got output ${'output' in res ? JSON.stringify(res.output) : ''}`);
          if (exp.errorContains !== undefined) assert.ok(res.error.includes(exp.errorContains), `error ${JSON.stringify(res.error)} lacks ${JSON.stringify(exp.errorContains)}`);
          else assert.equal(res.error, exp.error);
        }
      });
    }
  });
}

describe('golden corpus', () => {
  it('has at least 600 cases', () => {
    assert.ok(total >= 600, `only ${total} golden cases`);
  });
});
