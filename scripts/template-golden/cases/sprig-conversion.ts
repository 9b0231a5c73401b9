// sprig type conversion and math.
import type { CaseSource } from '../lib/case.ts';

const simple = (templates: string[]): CaseSource[] => templates.map((template) => ({ template }));

const convProbes = ['1', '1.9', '-1.9', '"12"', '"12.7"', '"0x1A"', '"010"', '"abc"', '""', 'true', 'false', '.nil', '.num', '.float', '.neg', '.big', '.list', '"1e3"', '" 5"', '(int64 7)'];

export const cases: CaseSource[] = [
  ...simple([
    convProbes.map((p) => `{{ int ${p} }}`).join(' '),
    convProbes.map((p) => `{{ int64 ${p} }}`).join(' '),
    convProbes.map((p) => `{{ float64 ${p} }}`).join(' '),
    convProbes.map((p) => `{{ atoi (toString ${p}) }}`).join(' '),
    '{{ toDecimal "0777" }} {{ toDecimal "777" }} {{ toDecimal "8" }} {{ toDecimal 10 }} {{ toDecimal "x" }}',
    '{{ int "9223372036854775808" }} {{ int64 "-9223372036854775809" }}',
    '{{ int 1e19 }}',
    '{{ float64 "1e400" }}',
    '{{ toJson (int .float) }} {{ toJson (float64 .num) }} {{ int .num | toJson }}',
    '{{ typeOf (int 1) }} {{ typeOf (int64 1) }} {{ typeOf (float64 1) }} {{ typeOf (atoi "1") }}',
    // integer math
    '{{ add 1 2 }} {{ add }} {{ add 1 }} {{ add 1 2 3 4 }} {{ add 1.9 1.9 }} {{ add "3" 4 }} {{ add .num .float }}',
    '{{ add1 5 }} {{ add1 .float }} {{ add1 "x" }}',
    '{{ sub 5 3 }} {{ sub 3 5 }} {{ sub .float 1 }}',
    '{{ mul 3 4 }} {{ mul 2 2 2 2 }} {{ mul 5 }} {{ mul 2.5 2.5 }}',
    '{{ div 7 2 }} {{ div -7 2 }} {{ div 7.9 2 }}',
    '{{ div 1 0 }}',
    '{{ mod 7 3 }} {{ mod -7 3 }} {{ mod 7 -3 }}',
    '{{ mod 1 0 }}',
    '{{ max 1 5 3 }} {{ max -1 }} {{ biggest 2 9 }} {{ min 4 2 8 }} {{ min 3 }} {{ max 1.5 1.9 }}',
    '{{ maxf 1 5.5 3 }} {{ minf 4 2.5 8 }} {{ maxf 1 }} {{ minf "2" 1 }}',
    '{{ addf 1.5 2.25 }} {{ addf 0.1 0.2 }} {{ add1f 1.5 }} {{ subf 10 0.1 0.2 }} {{ mulf 1.1 3 }} {{ divf 10 4 }} {{ divf 1 3 }}',
    '{{ divf 1 0 }}',
    '{{ addf }} {{ addf "1.5" 1 }} {{ mulf 2 }}',
    '{{ ceil 1.1 }} {{ ceil -1.1 }} {{ ceil "2.5" }} {{ floor 1.9 }} {{ floor -1.1 }} {{ floor 3 }}',
    '{{ round 3.14159 2 }} {{ round 2.5 0 }} {{ round -2.5 0 }} {{ round 1.005 2 }} {{ round 123.456 -1 }} {{ round 2.675 2 0.3 }}',
    '{{ round "1.55" 1 }} {{ round .float 1 }}',
    '{{ add 9223372036854775807 1 }}',
    '{{ mul 3037000500 3037000500 }}',
    '{{ typeOf (add 1 2) }} {{ typeOf (addf 1 2) }} {{ typeOf (max 1 2) }} {{ typeOf (maxf 1 2) }} {{ typeOf (ceil 1) }} {{ typeOf (len .list) }}',
    '{{ add 1 2 | printf "%d" }} {{ addf 1 2 | printf "%v" }} {{ printf "%d" (int 3) }}',
    '{{ printf "%d" .num }}',
    '{{ printf "%d" (int .num) }}',
    '{{ toJson (div 10 3) }} {{ toJson (divf 10 4) }}',
    '{{ until 3 | toJson }} {{ seq 3 | toJson }}',
    '{{ eq (add 1 1) 2 }}',
    '{{ eq (add 1 1) .num }}',
    '{{ lt (add 1 1) 3 }}',
    '{{ eq (int .num) 42 }}',
    '{{ eq (len .list) (int 3) }}',
    '{{ index .list (int 1) }}',
    '{{ index .list (add 0 1) }}',
    '{{ slice .list (int64 1) }}',
    '{{ until (int .num | mod 4) }}',
    '{{ until .num }}',
    '{{ repeat .zero "x" }}',
    '{{ trunc .num "abc" }}',
    '{{ int64 .nil | add1 }}',
  ]),
];
