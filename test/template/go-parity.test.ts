// Outputs where JS's number and case rules differ from Go 1.19 + sprig 3.2.3 (issue 14, finding 15). Each
// expectation is what the Go reference renderer prints.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { fromJSONValue, parse, templateFunctions } from '../../src/template/index.ts';
import { toYaml } from '../../src/landscaper/templating/functions/yaml.ts';

const run = (src: string, data: unknown = {}): string =>
  parse('T', src, { funcs: templateFunctions() }).execute(fromJSONValue(data), { missingKey: 'default' });

describe('encoding/json float format (toJson, toPrettyJson, toRawJson and their must forms)', () => {
  it('drops the leading zero of a one-digit negative exponent, as encoding/json does', () => {
    const data = { v: [1e-7, 5e-9, -2e-8, 1.5e-10, 1e-6, 1e21, 1.5e300, 0.1, -0] };
    const compact = '[1e-7,5e-9,-2e-8,1.5e-10,0.000001,1e+21,1.5e+300,0.1,-0]';
    assert.equal(run('{{ toJson .v }}', data), compact);
    assert.equal(run('{{ toRawJson .v }}', data), compact);
    assert.equal(run('{{ mustToJson .v }}', data), compact);
    assert.equal(run('{{ mustToRawJson .v }}', data), compact);
    assert.equal(run('{{ toPrettyJson (dict "a" 1e-7) }}'), '{\n  "a": 1e-7\n}');
    assert.equal(run('{{ mustToPrettyJson (dict "a" 3e-9) }}'), '{\n  "a": 3e-9\n}');
    assert.equal(run('{{ toJson 1e-7 }} {{ 1e-7 }} {{ printf "%v %g" 1e-7 1e-7 }}'), '1e-7 1e-07 1e-07 1e-07');
  });
});

describe('unicode case mapping rune by rune (unicode.ToUpper/ToLower/ToTitle)', () => {
  it('upper keeps runes without a one-rune upper case and uses the simple mapping', () => {
    assert.equal(run('{{ upper "straße ŉ ﬁ ǰ ΐ ᾳ ᾀ ǆ" }}'), 'STRAßE ŉ ﬁ ǰ ΐ ᾼ ᾈ Ǆ');
  });
  it('lower maps İ to i and ignores the final-sigma context', () => {
    assert.equal(run('{{ lower "İSTANBUL ΟΔΟΣ ǅ" }}'), 'istanbul οδοσ ǆ');
  });
  it('leaves case pairs of Unicode editions after 13.0 alone', () => {
    assert.equal(run('{{ upper "ɤ ⱟ" }} {{ lower "Ꟁ 𐕰" }}'), 'ɤ ⱟ Ꟁ 𐕰');
  });
  it('title uses title case and Go separators', () => {
    assert.equal(run('{{ title "ǆemal ßa ᾀb ﬁx აბ «hello» x.y" }}'), 'ǅemal ßa ᾈb ﬁx აბ «hello» X.Y');
  });
  it('untitle lowers with the simple mapping', () => {
    assert.equal(run('{{ untitle "İSTANBUL Ünü" }}'), 'iSTANBUL ünü');
  });
  it('swapcase uses the Lu/Ll/Lt categories and title case after spaces', () => {
    assert.equal(run('{{ swapcase "ǅ ß Ⓐ x ᾀ İ" }}'), 'ǆ ß Ⓐ X ᾈ i');
  });
  it('camelcase, snakecase and kebabcase map single runes', () => {
    assert.equal(run('{{ camelcase "ß_ŉ_straße" }}'), 'ßŉStraße');
    assert.equal(run('{{ snakecase "İstanbulCity" }}'), 'istanbul_city');
    assert.equal(run('{{ kebabcase "İstanbulCity" }}'), 'istanbul-city');
  });
});

describe('toYaml numbers (sigs.k8s.io/yaml: JSON, then go-yaml v2 reads the number back)', () => {
  it('writes negative zero as 0, since go-yaml parses the JSON "-0" as the int 0', () => {
    assert.equal(toYaml(fromJSONValue({ a: -0, b: [-0, 0.5] })), 'a: 0\nb:\n- 0\n- 0.5');
    assert.equal(toYaml(-0), '0');
  });
  it('writes integers past uint64 as go-yaml floats and small exponents as %g', () => {
    assert.equal(toYaml(fromJSONValue({ a: 1e20, b: 1e19, c: -1e19, d: 1e-7, e: 1234567.5 })),
      'a: 1e+20\nb: 10000000000000000000\nc: -1e+19\nd: 1e-07\ne: 1.2345675e+06');
  });
});
