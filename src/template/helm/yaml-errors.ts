// Parse errors in go-yaml v2's words: Helm reads manifests and fromYaml text with sigs.k8s.io/yaml, whose
// messages ("yaml: line 11: could not find expected ':'") users and goldens see; the yaml package words them
// differently and counts some lines differently.
import { YAMLParseError } from 'yaml';

/** go-yaml's message for the yaml package's error, for the errors templates commonly produce. */
export function goYamlError(e: unknown): string {
  if (!(e instanceof YAMLParseError)) return (e as Error).message;
  const line = e.linePos?.[0].line ?? 0;
  if (e.code === 'MISSING_CHAR' && e.message.startsWith('Implicit map keys')) return `yaml: line ${line + 1}: could not find expected ':'`;
  if (e.code === 'BLOCK_AS_IMPLICIT_KEY') return `yaml: line ${line + 1}: mapping values are not allowed in this context`;
  if (e.code === 'BAD_INDENT' && e.message.startsWith('All mapping items')) return `yaml: line ${line - 1}: did not find expected key`;
  return `yaml: line ${line}: ${e.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '')}`;
}
