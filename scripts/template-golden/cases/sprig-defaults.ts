// sprig defaults, emptiness, JSON, ternary, deepCopy.
import type { CaseSource } from '../lib/case.ts';

const simple = (templates: string[]): CaseSource[] => templates.map((template) => ({ template }));

const emptyProbes = ['.nil', '.missing', '0', '0.0', '""', '" "', 'false', 'true', '.emptyList', '.emptyMap', '.list', '.map', '.zero', '.str', '(list)', '(dict)', '(int64 0)', '(float64 0)', '.f', '"0"'];

export const cases: CaseSource[] = [
  ...simple([
    emptyProbes.map((p) => `{{ empty ${p} }}`).join(' '),
    emptyProbes.map((p) => `{{ default "D" ${p} }}`).join(' '),
    '{{ .missing | default "x" }} {{ .str | default "x" }} {{ default 5 .zero }}',
    '{{ default .list .nil }}',
    '{{ default "a" }}',
    '{{ default }}',
    '{{ default "a" "b" "c" }}',
    '{{ coalesce .nil .missing "" 0 "first" "second" }} {{ coalesce .nil 0 }} {{ coalesce }}',
    '{{ coalesce .emptyList .emptyMap .list }}',
    '{{ all 1 "a" true }} {{ all 1 "" true }} {{ all }} {{ all .list .map }} {{ all .emptyList }}',
    '{{ any 0 "" .nil }} {{ any 0 "a" }} {{ any }}',
    '{{ compact (list 1 0 "" "a" .nil false (list) true) }}',
    '{{ mustCompact (list "" "b") }}',
    '{{ compact "x" }}',
    '{{ mustCompact "x" }}',
    '{{ ternary "yes" "no" true }} {{ ternary "yes" "no" false }} {{ true | ternary 1 2 }}',
    '{{ ternary "yes" "no" 1 }}',
    '{{ toJson .nested }}',
    '{{ toJson .map }} {{ toJson .list }} {{ toJson .str }} {{ toJson .nil }} {{ toJson .missing }}',
    '{{ toJson .big }} {{ toJson .small }} {{ toJson .float }} {{ toJson 1 }} {{ toJson 1.0 }} {{ toJson (int64 5) }}',
    '{{ toJson .html }}',
    '{{ toJson "\\u2028 é \\t" }}',
    '{{ toJson (dict "b" 1 "a" (list 1 2 (dict "z" .nil "y" 1e21))) }}',
    '{{ toPrettyJson .nested }}',
    '{{ toPrettyJson .emptyMap }} {{ toPrettyJson .emptyList }} {{ toPrettyJson 1 }}',
    '{{ toRawJson .html }}',
    '{{ toRawJson .nested }}',
    '{{ mustToJson .map }} {{ mustToPrettyJson .list }} {{ mustToRawJson "<" }}',
    '{{ fromJson .json }}',
    '{{ (fromJson .json).a }} {{ index (fromJson .json) "b" }}',
    '{{ fromJson "1" }} {{ fromJson "\\"s\\"" }} {{ fromJson "null" }} {{ fromJson "[1,2]" }} {{ fromJson "true" }}',
    '{{ fromJson "{bad" }}',
    '{{ fromJson "" }}',
    '{{ mustFromJson .json }}',
    '{{ fromJson .json | toJson }}',
    '{{ fromJson "12345678901234567890" }}',
    '{{ fromJson "1e400" }}',
    '{{ deepCopy .nested }}',
    '{{ $a := dict "x" (list 1) }}{{ $b := deepCopy $a }}{{ $_ := set $b "x" 2 }}{{ $a }} {{ $b }}',
    '{{ mustDeepCopy .map }}',
    '{{ deepCopy .nil }}',
    '{{ mustDeepCopy .nil }}',
  ]),
  { template: '{{ mustFromJson "{bad" }}', errorContains: 'error calling mustFromJson: ' },
];
