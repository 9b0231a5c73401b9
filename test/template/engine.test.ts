// Unit tests of the text/template language core, including Go >= 1.20 features (range over int,
// else with, break/continue) that the Go 1.19 golden corpus cannot check.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  GoFuncError, TemplateExecError, TemplateLimitError, TemplateParseError, TemplateSet, formatFloat, fromJSONValue,
  goFunc, int, int64, parse, sprintf, type GoValue, type MissingKey,
} from '../../src/template/index.ts';

function run(src: string, data: unknown = {}, missingKey: MissingKey = 'default'): string {
  return parse('T', src).execute(fromJSONValue(data), { missingKey });
}

function err(src: string, data: unknown = {}, missingKey: MissingKey = 'default'): Error {
  try {
    run(src, data, missingKey);
  } catch (e) {
    return e as Error;
  }
  assert.fail(`expected an error for ${src}`);
}

describe('actions and values', () => {
  it('prints fields, nested maps and Go %v forms', () => {
    assert.equal(run('{{ .a.b }}', { a: { b: 'x' } }), 'x');
    assert.equal(run('{{ . }}', { b: [1, 'x'], a: null }), 'map[a:<nil> b:[1 x]]');
    assert.equal(run('{{ .n }} {{ .f }} {{ .big }} {{ .small }}', { n: 3, f: 1.5, big: 1234567, small: 0.00001 }),
      '3 1.5 1.234567e+06 1e-05');
    assert.equal(run('{{ 3 }} {{ 1.0 }} {{ 0x10 }} {{ \'a\' }} {{ 1_000 }}'), '3 1 16 97 1000');
  });
  it('renders <no value> for missing keys and nulls; missingkey=zero errors on nil traversal', () => {
    assert.equal(run('{{ .missing }}'), '<no value>');
    assert.equal(run('{{ .missing }}', {}, 'zero'), '<no value>');
    assert.equal(run('{{ .n }}', { n: null }), '<no value>');
    assert.equal(run('{{ .a.b }}', {}), '<no value>');
    assert.equal(err('{{ .a.b }}', {}, 'zero').message,
      'template: T:1:5: executing "T" at <.a.b>: nil pointer evaluating interface {}.b');
    assert.equal(err('{{ .a }}', {}, 'error').message,
      'template: T:1:3: executing "T" at <.a>: map has no entry for key "a"');
  });
  it('names the static interface{} type like Go', () => {
    assert.match(err('{{ range .l }}{{ .x }}{{ end }}', { l: ['s'] }).message, /can't evaluate field x in type interface \{\}/);
    assert.match(err('{{ $s := "a" }}{{ $s.x }}').message, /can't evaluate field x in type string/);
  });
  it('declares and assigns variables with scoping', () => {
    assert.equal(run('{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ $y := 3 }}{{ end }}{{ $x }}'), '2');
    assert.match(err('{{ if true }}{{ $y := 3 }}{{ end }}{{ $y }}').message, /undefined variable "\$y"/);
    assert.equal(run('{{ $ := 1 }}{{ $ }}', {}), '1');
  });
  it('trims whitespace and skips comments', () => {
    assert.equal(run('a  \n {{- 1 -}} \n  b'), 'a1b');
    assert.equal(run('a {{- /* c */ -}} b{{/* x */}}'), 'ab');
    assert.equal(run('{{-3}}'), '-3');
  });
  it('evaluates parenthesised pipelines, chains and pipes', () => {
    assert.equal(run('{{ (index .m "k").v }}', { m: { k: { v: 7 } } }), '7');
    assert.equal(run('{{ "a" | printf "%s-%s" "b" }}'), 'b-a');
    assert.equal(run('{{ .x | len }}', { x: 'héllo' }), '6');
  });
});

describe('control structures', () => {
  it('if / else if / else', () => {
    const t = '{{ if eq .x 1.0 }}one{{ else if eq .x 2.0 }}two{{ else }}many{{ end }}';
    assert.equal(run(t, { x: 1 }), 'one');
    assert.equal(run(t, { x: 2 }), 'two');
    assert.equal(run(t, { x: 5 }), 'many');
  });
  it('range over slices, maps sorted by key, with else', () => {
    assert.equal(run('{{ range $i, $e := .l }}{{ $i }}{{ $e }},{{ end }}', { l: ['a', 'b'] }), '0a,1b,');
    assert.equal(run('{{ range $k, $v := . }}{{ $k }}={{ $v }};{{ end }}', { b: 2, a: 1, c: 3 }), 'a=1;b=2;c=3;');
    assert.equal(run('{{ range .l }}x{{ else }}empty{{ end }}', { l: [] }), 'empty');
    assert.equal(run('{{ range .missing }}x{{ else }}empty{{ end }}'), 'empty');
    assert.match(err('{{ range .s }}{{ end }}', { s: 1.5 }).message, /range can't iterate over 1.5/);
  });
  it('range over an integer (Go 1.22+)', () => {
    assert.equal(run('{{ range 3 }}{{ . }}{{ end }}'), '012');
    assert.equal(run('{{ range $i := 3 }}{{ $i }}{{ end }}'), '012');
    assert.equal(run('{{ range 0 }}x{{ else }}none{{ end }}'), 'none');
    assert.match(err('{{ range $i, $e := 3 }}{{ end }}').message, /can't use 3 to iterate over more than one variable/);
    assert.match(err('{{ range .n }}{{ end }}', { n: 3 }).message, /range can't iterate over 3/); // JSON numbers are float64
  });
  it('break and continue (Go 1.18+)', () => {
    assert.equal(run('{{ range .l }}{{ if eq . "c" }}{{ break }}{{ end }}{{ . }}{{ end }}', { l: ['a', 'b', 'c', 'd'] }), 'ab');
    assert.equal(run('{{ range .l }}{{ if eq . "b" }}{{ continue }}{{ end }}{{ . }}{{ end }}', { l: ['a', 'b', 'c'] }), 'ac');
    assert.equal(run('{{ range 2 }}{{ range 3 }}{{ if eq . 1 }}{{ break }}{{ end }}{{ . }}{{ end }}|{{ end }}'), '0|0|');
    assert.match(err('{{ break }}').message, /\{\{break\}\} outside \{\{range\}\}/);
  });
  it('with / else with (Go 1.23) / else', () => {
    const t = '{{ with .a }}a={{ . }}{{ else with .b }}b={{ . }}{{ else }}none{{ end }}';
    assert.equal(run(t, { a: 'A', b: 'B' }), 'a=A');
    assert.equal(run(t, { b: 'B' }), 'b=B');
    assert.equal(run(t, {}), 'none');
  });
  it('define / template / block share a set', () => {
    assert.equal(run('{{ define "x" }}<{{ . }}>{{ end }}{{ template "x" .v }}{{ template "x" }}', { v: 1 }), '<1><<no value>>');
    assert.equal(run('{{ block "b" .v }}[{{ . }}]{{ end }}', { v: 2 }), '[2]');
    const set = new TemplateSet();
    set.parse('base', '{{ block "body" . }}default{{ end }}');
    set.parse('override', '{{ define "body" }}custom {{ . }}{{ end }}');
    assert.equal(set.lookup('base')!.execute('x'), 'custom x');
    assert.match(err('{{ template "nope" }}').message, /template "nope" not defined/);
    assert.match(err('{{ define "a" }}1{{ end }}{{ define "a" }}2{{ end }}').message, /multiple definition of template "a"/);
  });
});

describe('builtins', () => {
  it('and/or short-circuit and return operands', () => {
    assert.equal(run('{{ and 1 0 2 }} {{ or 0 "" "x" }} {{ or 0 "" }} {{ not .x }}'), '0 x  true');
    const boom = goFunc({ params: [], results: ['string', 'error'] }, () => {
      throw new GoFuncError('boom');
    });
    const t = parse('T', '{{ or 1 (boom) }}{{ and 0 (boom) }}', { funcs: { boom } });
    assert.equal(t.execute({}), '10');
  });
  it('comparisons follow Go types and errors', () => {
    assert.equal(run('{{ eq 1 1 }} {{ eq "a" "b" "a" }} {{ lt "a" "b" }} {{ ge 2 3 }} {{ ne .x nil }}', { x: 1 }), 'true true true false true');
    assert.match(err('{{ eq .x 1 }}', { x: 1 }).message, /error calling eq: incompatible types for comparison/);
    assert.match(err('{{ lt true false }}').message, /error calling lt: invalid type for comparison/);
    assert.match(err('{{ eq 1 }}').message, /missing argument for comparison/);
  });
  it('index, slice and len', () => {
    assert.equal(run('{{ index .l 1 }} {{ index .m "k" }} {{ index .n 0 1 }} {{ slice .l 1 }} {{ slice "abcd" 1 3 }} {{ len .m }}',
      { l: [1, 2, 3], m: { k: 'v' }, n: [[1, 2]] }), '2 v 2 [2 3] bc 1');
    assert.match(err('{{ index .l 5 }}', { l: [1] }).message, /error calling index: index out of range: 5/);
    assert.match(err('{{ index .l 1.0 }}', { l: [1] }).message, /cannot index slice\/array with type float64/);
    assert.match(err('{{ len 3 }}').message, /len of type int/);
  });
  it('print family, html, js, urlquery', () => {
    assert.equal(run('{{ print 1 2 "a" "b" 3 nil }}'), '1 2ab3 <nil>');
    assert.equal(run('{{ println 1 "a" }}'), '1 a\n');
    assert.equal(run('{{ html "<a href=\'x\'>&" }}'), '&lt;a href=&#39;x&#39;&gt;&amp;');
    assert.equal(run('{{ js "a\'b<" }}'), "a\\'b\\u003C");
    assert.equal(run('{{ urlquery "a b&c/é" }}'), 'a+b%26c%2F%C3%A9');
    assert.equal(run('{{ html .missing }}'), '&lt;no value&gt;');
  });
  it('call', () => {
    const t = parse('T', '{{ call .f 2 }}');
    const f = goFunc({ params: ['int'], results: ['int'] }, (n: GoValue) => int64(Number((n as ReturnType<typeof int>).value) * 2));
    assert.equal(t.execute({ f } as never), '4');
  });
});

describe('function argument checking', () => {
  const upper = goFunc({ params: ['string'], results: ['string'] }, (s: string) => s.toUpperCase());
  const rep = goFunc({ params: ['int', 'string'], results: ['string'] }, (n: GoValue, s: string) => s.repeat(Number((n as ReturnType<typeof int>).value)));
  const t = (src: string, data: unknown = {}, mk: MissingKey = 'default'): string =>
    parse('T', src, { funcs: { upper, rep } }).execute(fromJSONValue(data), { missingKey: mk });
  it('converts literals to parameter types and checks values', () => {
    assert.equal(t('{{ upper "a" }} {{ rep 2 "x" }} {{ "b" | upper }}'), 'A xx B');
    assert.throws(() => t('{{ upper 3 }}'), /expected string; found 3/);
    assert.throws(() => t('{{ rep .n "x" }}', { n: 2 }), /wrong type for value; expected int; got float64/);
    assert.throws(() => t('{{ upper .missing }}'), /invalid value; expected string/);
    assert.throws(() => t('{{ upper .missing }}', {}, 'zero'), /wrong type for value; expected string; got interface \{\}/);
    assert.throws(() => t('{{ upper "a" "b" }}'), /wrong number of args for upper: want 1 got 2/);
  });
  it('wraps function errors with the command as context', () => {
    const fail = goFunc({ params: ['string'], results: ['string', 'error'] }, (m: string) => {
      throw new GoFuncError(m);
    });
    assert.throws(() => parse('T', 'x\n  {{ fail "bad" }}', { funcs: { fail } }).execute({}),
      (e: Error) => e instanceof TemplateExecError && e.message === 'template: T:2:5: executing "T" at <fail "bad">: error calling fail: bad');
  });
});

describe('parse errors', () => {
  const perr = (src: string): string => {
    try {
      parse('P', src);
    } catch (e) {
      assert.ok(e instanceof TemplateParseError);
      return e.message;
    }
    return assert.fail('expected a parse error');
  };
  it('reports Go messages with line numbers', () => {
    assert.equal(perr('{{ nosuch 1 }}'), 'template: P:1: function "nosuch" not defined');
    assert.equal(perr('a\n{{ if 1 }}'), 'template: P:2: unexpected EOF');
    assert.equal(perr('{{ .x'), 'template: P:1: unclosed action');
    assert.equal(perr('{{ end }}'), 'template: P:1: unexpected {{end}}');
    assert.equal(perr('{{ $x }}'), 'template: P:1: undefined variable "$x"');
    assert.equal(perr('{{ 1 | 2 }}'), 'template: P:1: non executable command in pipeline stage 2');
    assert.equal(perr('{{ "a }}'), 'template: P:1: unterminated quoted string');
    assert.equal(perr('{{ ( 1 }}'), 'template: P:1: unclosed left paren');
    assert.equal(perr('{{ 1 ) }}'), "template: P:1: unexpected right paren U+0029 ')'");
    assert.equal(perr('{{ 9999999999999999999999 }}'), 'template: P:1: integer overflow: "9999999999999999999999"');
  });
});

describe('fmt', () => {
  it('formats verbs, widths, flags and bad verbs like Go', () => {
    const s = (f: string, ...a: GoValue[]): string => sprintf(f, a);
    assert.equal(s('%5.2f|%-5d|%05d|%+d|%x|%X|%o|%b|%#x', 3.14159, int(42), int(-42), int(7), int(255), int(255), int(8), int(5), int(255)),
      ' 3.14|42   |-0042|+7|ff|FF|10|101|0xff');
    assert.equal(s('%e|%E|%g|%G|%.3g|%v', 123456.789, 0.000123, 1e21, 1e-7, 3.14159, 100000.0), '1.234568e+05|1.230000E-04|1e+21|1E-07|3.14|100000');
    assert.equal(s('%s|%q|%+q|%#q|%x|%10s|%-4s|%.2s', 'hi', 'a"b', 'é', 'x', 'hi', 'r', 'l', 'abc'), 'hi|"a\\"b"|"\\u00e9"|`x`|6869|         r|l   |ab');
    assert.equal(s('%t|%v|%T|%T|%T', true, null, int(1), 1.5, fromJSONValue({})), 'true|<nil>|int|float64|map[string]interface {}');
    assert.equal(s('%c|%q|%U|%#U', int(65), int(65), int(0x1f600), int(65)), "A|'A'|U+1F600|U+0041 'A'");
    assert.equal(s('%d|%s|%d', 'hi', int(1), null), '%!d(string=hi)|%!s(int=1)|%!d(<nil>)');
    assert.equal(s('%d %d', int(1)), '1 %!d(MISSING)');
    assert.equal(s('%d', int(1), 'x', 2.5), '1%!(EXTRA string=x, float64=2.5)');
    assert.equal(s('%[2]d %[1]d|%*d|%', int(1), int(2), int(3), int(4)), '2 1| 3|%!(NOVERB)');
    assert.equal(s('%v|%d', fromJSONValue([1, 'a', null]), fromJSONValue([1, 2])), '[1 a <nil>]|[%!d(float64=1) %!d(float64=2)]');
    assert.equal(s('%6.2f|%-8.3e|%08.3f', -1.5, 1234.5, -3.14159), ' -1.50|1.234e+03|-003.142');
  });
  it('rounds halves to even and formats floats exactly', () => {
    assert.equal(formatFloat(2.5, 'f', 0), '2');
    assert.equal(formatFloat(3.5, 'f', 0), '4');
    assert.equal(formatFloat(0.125, 'f', 2), '0.12');
    assert.equal(formatFloat(1.005, 'f', 2), '1.00'); // 1.005 is below the half in binary
    assert.equal(formatFloat(123456789, 'g', -1), '1.23456789e+08');
    assert.equal(formatFloat(-0, 'g', -1), '-0');
    assert.equal(formatFloat(Infinity, 'g', -1), '+Inf');
    assert.equal(formatFloat(1, 'b', -1), '4503599627370496p-52');
    assert.equal(formatFloat(1.5, 'x', -1), '0x1.8p+00');
  });
});

describe('limits', () => {
  it('stops runaway loops, recursion and output with typed errors', () => {
    const small = { maxSteps: 10_000, maxOutput: 1000, maxDepth: 50 };
    assert.throws(() => parse('L', '{{ range 1000000000 }}{{ end }}', { limits: small }).execute({}),
      (e: Error) => e instanceof TemplateLimitError && e.limit === 'steps');
    assert.throws(() => parse('L', '{{ range 200 }}xxxxxxxxxx{{ end }}', { limits: small }).execute({}),
      (e: Error) => e instanceof TemplateLimitError && e.limit === 'output');
    assert.throws(() => parse('L', '{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}', { limits: small }).execute({}),
      /exceeded maximum template depth \(50\)/);
    // The default depth limit must be reachable without overflowing the JS stack.
    assert.throws(() => parse('L', '{{ define "r" }}{{ if true }}{{ with . }}{{ range 1 }}{{ template "r" 1 }}{{ end }}{{ end }}{{ end }}{{ end }}{{ template "r" 1 }}').execute({}),
      /exceeded maximum template depth \(250\)/);
    // Beyond what any limit catches, a JS stack overflow still ends as a typed error.
    assert.throws(() => parse('L', '{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" 1 }}', { limits: { maxDepth: 1e6, maxSteps: 1e9 } }).execute({}),
      (e: Error) => e instanceof TemplateLimitError && e.limit === 'depth');
  });
  it('nested executions started by functions share the budget', () => {
    const set = new TemplateSet({ limits: { maxDepth: 20, maxSteps: 1e6, maxOutput: 1e6 } });
    const include = goFunc({ params: ['string', 'interface {}'], results: ['string', 'error'] },
      (name: string, data: GoValue) => set.lookup(name)!.execute(data));
    set.addFuncs({ include });
    set.parse('loop', '{{ include "loop" . }}');
    assert.throws(() => set.lookup('loop')!.execute({}), (e: Error) => e instanceof TemplateLimitError && e.limit === 'depth');
  });
});
