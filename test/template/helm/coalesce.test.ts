// Ported from helm/helm v3.19.2 pkg/chartutil/coalesce_test.go (TestCoalesceValues, TestCoalesceTables).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { fromJSONValue, render } from '../../../src/template/index.ts';
import type { Chart } from '../../../src/template/helm/chart.ts';
import { coalesceChartValues, coalesceTables, type Values } from '../../../src/template/helm/values.ts';

const USER_YAML = `
top: yup
bottom: null
right: Null
left: NULL
front: ~
back: ""
nested:
  boat: null

global:
  name: Ishmael
  subject: Queequeg
  nested:
    boat: true

pequod:
  boat: null
  global:
    name: Stinky
    harpooner: Tashtego
    nested:
      boat: false
      sail: true
      foo2: null
  ahab:
    scope: whale
    boat: null
    nested:
      foo: true
      boat: null
    object: null
`;

function chart(name: string, values: Values, ...deps: Chart[]): Chart {
  const c: Chart = { metadata: { name }, values, templates: [], files: [], crds: [], dependencies: deps };
  for (const d of deps) d.parent = c;
  return c;
}

function moby(): Chart {
  return chart('moby', {
    back: 'exists', bottom: 'exists', front: 'exists', left: 'exists', name: 'moby', nested: { boat: true }, override: 'bad',
    right: 'exists', scope: 'moby', top: 'nope', global: { nested2: { l0: 'moby' } },
    pequod: { boat: 'maybe', ahab: { boat: 'maybe', nested: { boat: 'maybe' } } },
  },
  chart('pequod', { name: 'pequod', scope: 'pequod', global: { nested2: { l1: 'pequod' } }, boat: false, ahab: { boat: false, nested: { boat: false } } },
    chart('ahab', { global: { nested: { foo: 'bar', foo2: 'bar2' }, nested2: { l2: 'ahab' } }, scope: 'ahab', name: 'ahab', boat: true, nested: { foo: false, boat: true }, object: { foo: 'bar' } })),
  chart('spouter', { scope: 'spouter', global: { nested2: { l1: 'spouter' } } }));
}

const EXPANSIONS: [string, string][] = [
  ['{{.top}}', 'yup'], ['{{.back}}', ''], ['{{.name}}', 'moby'], ['{{.global.name}}', 'Ishmael'],
  ['{{.global.subject}}', 'Queequeg'], ['{{.global.harpooner}}', '<no value>'], ['{{.pequod.name}}', 'pequod'],
  ['{{.pequod.ahab.name}}', 'ahab'], ['{{.pequod.ahab.scope}}', 'whale'], ['{{.pequod.ahab.nested.foo}}', 'true'],
  ['{{.pequod.ahab.global.name}}', 'Ishmael'], ['{{.pequod.ahab.global.nested.foo}}', 'bar'],
  ['{{.pequod.ahab.global.nested.foo2}}', '<no value>'], ['{{.pequod.ahab.global.subject}}', 'Queequeg'],
  ['{{.pequod.ahab.global.harpooner}}', 'Tashtego'], ['{{.pequod.global.name}}', 'Ishmael'],
  ['{{.pequod.global.nested.foo}}', '<no value>'], ['{{.pequod.global.subject}}', 'Queequeg'],
  ['{{.spouter.global.name}}', 'Ishmael'], ['{{.spouter.global.harpooner}}', '<no value>'],
  ['{{.global.nested.boat}}', 'true'], ['{{.pequod.global.nested.boat}}', 'true'], ['{{.spouter.global.nested.boat}}', 'true'],
  ['{{.pequod.global.nested.sail}}', 'true'], ['{{.spouter.global.nested.sail}}', '<no value>'],
  ['{{.global.nested2.l0}}', 'moby'], ['{{.global.nested2.l1}}', '<no value>'], ['{{.global.nested2.l2}}', '<no value>'],
  ['{{.pequod.global.nested2.l0}}', 'moby'], ['{{.pequod.global.nested2.l1}}', 'pequod'], ['{{.pequod.global.nested2.l2}}', '<no value>'],
  ['{{.pequod.ahab.global.nested2.l0}}', 'moby'], ['{{.pequod.ahab.global.nested2.l1}}', 'pequod'],
  ['{{.pequod.ahab.global.nested2.l2}}', 'ahab'], ['{{.spouter.global.nested2.l0}}', 'moby'],
  ['{{.spouter.global.nested2.l1}}', 'spouter'], ['{{.spouter.global.nested2.l2}}', '<no value>'],
];

test('TestCoalesceValues', async (t) => {
  const user = parseYaml(USER_YAML) as Values;
  const before = structuredClone(user);
  const v = coalesceChartValues(moby(), user);
  for (const [tpl, want] of EXPANSIONS) {
    await t.test(tpl, () => assert.equal(render('t', tpl, fromJSONValue(v)), want));
  }
  for (const k of ['bottom', 'right', 'left', 'front']) assert.ok(!(k in v), `${k} removed`);
  const pequod = v.pequod as Values;
  const ahab = pequod.ahab as Values;
  assert.ok(!('boat' in (v.nested as Values)));
  assert.ok(!('boat' in pequod));
  assert.ok(!('boat' in ahab));
  assert.ok(!('boat' in (ahab.nested as Values)));
  assert.ok(!('object' in ahab));
  assert.deepEqual(user, before, 'the user values are not mutated');
});

test('TestCoalesceTables', () => {
  const dst: Values = {
    name: 'Ishmael', address: { street: '123 Spouter Inn Ct.', city: 'Nantucket', country: null },
    details: { friends: ['Tashtego'] }, boat: 'pequod', hole: null,
  };
  coalesceTables(dst, { occupation: 'whaler', address: { state: 'MA', street: '234 Spouter Inn Ct.', country: 'US' }, details: 'empty', boat: { mast: true }, hole: 'black' });
  assert.deepEqual(dst, {
    name: 'Ishmael', occupation: 'whaler', address: { street: '123 Spouter Inn Ct.', city: 'Nantucket', state: 'MA' },
    details: { friends: ['Tashtego'] }, boat: 'pequod',
  });
  const dst2: Values = { name: 'Ishmael', address: { street: '123 Spouter Inn Ct.', city: 'Nantucket', country: 'US' }, details: { friends: ['Tashtego'] }, boat: 'pequod', hole: 'black' };
  const copy = structuredClone(dst2);
  coalesceTables(dst2, {});
  assert.deepEqual(dst2, copy);
});
