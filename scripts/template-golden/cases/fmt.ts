// printf verbs, flags, widths and precisions, on the values JSON data and sprig produce.
import type { CaseSource } from '../lib/case.ts';

const verbs = ['%v', '%+v', '%#v', '%s', '%q', '%d', '%x', '%X', '%o', '%O', '%b', '%e', '%E', '%f', '%F', '%g', '%G', '%t', '%T', '%c', '%U'];
const args = ['1', '-42', '.num', '.float', '.neg', '.big', '.small', '"str"', '.unicode', 'true', '.nil', '.list', '.strs', '.map', '.emptyList', '.missing', '(int64 255)', '(float64 2)', '0x41', '3.0', '(list 1 "a")'];

const matrix: CaseSource[] = [];
for (const verb of verbs) {
  matrix.push({ template: args.map((a) => `{{ printf "${verb}" ${a} }}`).join('|'), note: `verb ${verb}` });
}

export const cases: CaseSource[] = [
  ...matrix,
  ...[
    '{{ printf "%5d|%-5d|%05d|%+d|% d" 42 42 42 42 42 }}',
    '{{ printf "%8.3f|%-8.2f|%08.3f|%+.1f|%.0f" 3.14159 3.14159 -3.14159 2.5 2.5 }}',
    '{{ printf "%.2e|%10.3e|%.3g|%g|%g" 12345.678 0.00012 12345.678 100000.0 1000000.0 }}',
    '{{ printf "%g|%g|%g|%g" 1e20 1e21 0.0001 0.00001 }}',
    '{{ printf "%v|%v|%v" 1e20 1e21 0.00001 }}',
    '{{ printf "%x|%X|%#x|%#o|%#b|%08b" 255 255 255 8 5 5 }}',
    '{{ printf "%x|%X|% x|%#x" "hi" "hi" "hey" "hi" }}',
    '{{ printf "%10s|%-10s|%.2s|%10.2s" "abc" "abc" "abc" "abc" }}',
    '{{ printf "%q|%+q|%#q|%q" "a\\"b" "é" "raw" "tab\\t" }}',
    '{{ printf "%q" 65 }} {{ printf "%c|%c|%U|%#U" 65 233 65 233 }}',
    '{{ printf "%t|%t|%5t" true false true }}',
    '{{ printf "%[2]d %[1]d" 1 2 }}',
    '{{ printf "%[3]d" 1 2 }}',
    '{{ printf "%*d|%-*d" 5 42 4 7 }}',
    '{{ printf "%.*f" 2 3.14159 }}',
    '{{ printf "%6.2v|%.3v" 3.14159 "abcdef" }}',
    '{{ printf "%!" }}',
    '{{ printf "%d" "str" }}',
    '{{ printf "%s" 42 }}',
    '{{ printf "%t" 1 }}',
    '{{ printf "%d" 1.5 }}',
    '{{ printf "%f" 1 }}',
    '{{ printf "%x" 1.5 }}',
    '{{ printf "%v %v" .map .nested }}',
    '{{ printf "%+v" .nested }}',
    '{{ printf "%#v" .nested }}',
    '{{ printf "%v" (dict "b" 1 "a" (list 1 2)) }}',
    '{{ printf "%s" .list }}',
    '{{ printf "%d" .list }}',
    '{{ printf "%d" .strs }}',
    '{{ printf "%q" .strs }}',
    '{{ printf "%x" .strs }}',
    '{{ printf "%5v|%-5v|" .list .strs }}',
    '{{ printf "%v" (list) }}',
    '{{ printf "%v|%s|%d" nil nil nil }}',
    '{{ printf "%T|%T|%T|%T|%T|%T" 1 1.5 "s" true .list .map }}',
    '{{ printf "%T|%T|%T" .nil (int64 1) (toStrings .list) }}',
    '{{ printf "%T" (atoi "1") }}',
    '{{ printf "%v" (int64 9007199254740993) }}',
    '{{ printf "%.3f" 2.0005 }} {{ printf "%.2f" 1.005 }} {{ printf "%.1f" 0.25 }} {{ printf "%.0f" 0.5 }} {{ printf "%.0f" 1.5 }}',
    '{{ printf "%e" 0.0 }} {{ printf "%g" 0.0 }} {{ printf "%v" -0.0 }}',
    '{{ printf "%6.2f%%" 99.5 }}',
    '{{ printf "%s" (toString 1) }}',
    '{{ printf "%v" .mixed }}',
    '{{ printf "%03d|%-03d|%+03d" -5 -5 5 }}',
    '{{ printf "%x|%X" -255 -255 }}',
    '{{ printf "%o|%b" -8 -5 }}',
    '{{ printf "%e" 1e21 }} {{ printf "%.3E" 123456.0 }}',
    '{{ printf "%g" 123456789.0 }} {{ printf "%G" 1e-10 }} {{ printf "%.10g" 1.0 }}',
    '{{ printf "%s" true }} {{ printf "%s" 1.5 }}',
    '{{ printf "%c" "x" }}',
    '{{ printf "%v" "%d" }}',
  ].map((template) => ({ template })),
];
