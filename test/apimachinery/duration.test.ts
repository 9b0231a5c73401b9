// Go's time.ParseDuration and Duration.String, with the cases of Go's time package tests (time_test.go:
// parseDurationTests, parseDurationErrorTests, durationTests), written out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DurationError, formatDuration, formatGoDuration, parseDuration, parseGoDuration } from '../../src/apimachinery/duration.ts';

const ns = 1n;
const us = 1000n * ns;
const ms = 1000n * us;
const s = 1000n * ms;
const m = 60n * s;
const h = 60n * m;
const maxInt64 = (1n << 63n) - 1n;
const minInt64 = -(1n << 63n);

const parsed: Array<[string, bigint]> = [
  // simple
  ['0', 0n],
  ['5s', 5n * s],
  ['30s', 30n * s],
  ['1478s', 1478n * s],
  // sign
  ['-5s', -5n * s],
  ['+5s', 5n * s],
  ['-0', 0n],
  ['+0', 0n],
  // decimal
  ['5.0s', 5n * s],
  ['5.6s', 5n * s + 600n * ms],
  ['5.s', 5n * s],
  ['.5s', 500n * ms],
  ['1.0s', 1n * s],
  ['1.00s', 1n * s],
  ['1.004s', 1n * s + 4n * ms],
  ['1.0040s', 1n * s + 4n * ms],
  ['100.00100s', 100n * s + 1n * ms],
  // different units
  ['10ns', 10n * ns],
  ['11us', 11n * us],
  ['12µs', 12n * us], // U+00B5
  ['12μs', 12n * us], // U+03BC
  ['13ms', 13n * ms],
  ['14s', 14n * s],
  ['15m', 15n * m],
  ['16h', 16n * h],
  // composite durations
  ['3h30m', 3n * h + 30n * m],
  ['10.5s4m', 4n * m + 10n * s + 500n * ms],
  ['-2m3.4s', -(2n * m + 3n * s + 400n * ms)],
  ['1h2m3s4ms5us6ns', 1n * h + 2n * m + 3n * s + 4n * ms + 5n * us + 6n * ns],
  ['39h9m14.425s', 39n * h + 9n * m + 14n * s + 425n * ms],
  // large value
  ['52763797000ns', 52763797000n * ns],
  // more than 9 digits after the decimal point (golang.org/issue/6617)
  ['0.3333333333333333333h', 20n * m],
  // 1<<53+1 cannot be stored precisely in a float64
  ['9007199254740993ns', (1n << 53n) + 1n],
  // the largest and smallest int64 durations
  ['9223372036854775807ns', maxInt64],
  ['9223372036854775.807us', maxInt64],
  ['9223372036s854ms775us807ns', maxInt64],
  ['-9223372036854775808ns', minInt64],
  ['-9223372036854775.808us', minInt64],
  ['-9223372036s854ms775us808ns', minInt64],
  // a huge fraction (issue 15011), and the first overflow check of leadingFraction
  ['0.100000000000000000000h', 6n * m],
  ['0.830103483285477580700h', 49n * m + 48n * s + 372539827n * ns],
];

for (const [text, want] of parsed) {
  test(`ParseDuration(${JSON.stringify(text)}) = ${want}ns`, () => {
    assert.equal(parseDuration(text), want);
  });
}

const parseErrors: Array<[string, string]> = [
  ['', 'time: invalid duration ""'],
  ['3', 'time: missing unit in duration "3"'],
  ['-', 'time: invalid duration "-"'],
  ['s', 'time: invalid duration "s"'],
  ['.', 'time: invalid duration "."'],
  ['-.', 'time: invalid duration "-."'],
  ['.s', 'time: invalid duration ".s"'],
  ['+.s', 'time: invalid duration "+.s"'],
  ['1d', 'time: unknown unit "d" in duration "1d"'],
  ['5 minutes', 'time: unknown unit " minutes" in duration "5 minutes"'],
  ['\uFFFD', 'time: invalid duration "\\xef\\xbf\\xbd"'],
  ['\uFFFD hello \uFFFD world', 'time: invalid duration "\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd world"'],
  // overflow
  ['9223372036854775810ns', 'time: invalid duration "9223372036854775810ns"'],
  ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
  ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
  ['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
  ['9223372036854ms775us808ns', 'time: invalid duration "9223372036854ms775us808ns"'],
];

for (const [text, message] of parseErrors) {
  test(`ParseDuration(${JSON.stringify(text)}) fails: ${message}`, () => {
    assert.throws(() => parseDuration(text), (err: unknown) => err instanceof DurationError && err.message === message);
  });
}

const formatted: Array<[string, bigint]> = [
  ['0s', 0n],
  ['1ns', 1n * ns],
  ['1.1µs', 1100n * ns],
  ['2.2ms', 2200n * us],
  ['3.3s', 3300n * ms],
  ['4m5s', 4n * m + 5n * s],
  ['4m5.001s', 4n * m + 5001n * ms],
  ['5h6m7.001s', 5n * h + 6n * m + 7001n * ms],
  ['8m0.000000001s', 8n * m + 1n * ns],
  ['2562047h47m16.854775807s', maxInt64],
  ['-2562047h47m16.854775808s', minInt64],
  ['1h0m0s', 1n * h],
  ['1m30s', 90n * s],
  ['1.5s', 1500n * ms],
  ['500ms', 500n * ms],
  ['-1m30s', -90n * s],
];

for (const [want, d] of formatted) {
  test(`Duration(${d}).String() = ${want}`, () => {
    assert.equal(formatDuration(d), want);
    assert.equal(parseDuration(want), d, 'String() parses back');
  });
}

test('milliseconds: parseGoDuration and formatGoDuration', () => {
  assert.equal(parseGoDuration('1m30s'), 90_000);
  assert.equal(parseGoDuration('1.5ms'), 1.5);
  assert.equal(parseGoDuration('-2s'), -2000);
  assert.equal(formatGoDuration(3_600_000), '1h0m0s');
  assert.equal(formatGoDuration(300), '300ms');
  assert.equal(formatGoDuration(10_000), '10s');
  assert.equal(formatGoDuration(300_000), '5m0s');
  assert.equal(formatGoDuration(0.5), '500µs');
});
