// YAML as Helm reads values (values.yaml, -f files, fromYaml): sigs.k8s.io/yaml over go-yaml v2, which resolves
// plain scalars by YAML 1.1's rules (y/yes/on/off are booleans, 0777 is octal, 1_000 is an int) except that
// timestamps and base-60 numbers stay strings; Go's ParseInt also takes 0o17.
import { parse, type DocumentOptions, type ParseOptions, type SchemaOptions, type ScalarTag } from 'yaml';

const goOctal: ScalarTag = {
  tag: 'tag:yaml.org,2002:int',
  format: 'OCT',
  default: true,
  test: /^[-+]?0o[0-7_]+$/,
  resolve: (s: string) => (s.startsWith('-') ? -1 : 1) * Number.parseInt(s.replace(/^[-+]?0o/, '').replaceAll('_', ''), 8),
};

const OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  merge: true,
  customTags: (tags) => [
    ...tags.filter((t) => typeof t !== 'object' || (t.tag !== 'tag:yaml.org,2002:timestamp' && !('format' in t && t.format === 'TIME'))),
    goOctal,
  ],
};

/** One YAML document read as go-yaml v2 reads it. */
export function parseGoYaml(text: string): unknown {
  return parse(text, OPTIONS);
}

