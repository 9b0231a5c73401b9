// `bosun chaos validate -f FILE...`: checks Disruptions without a cluster, with the same pure validation the
// admission webhook runs (Spec.Validate, the create rules of Bosun's default configuration and the safety nets
// that need no target counts). Each error is printed with its field path; the exit status is 1 when any
// document is invalid or unreadable.
import { Command } from 'commander';
import { parseAllDocuments } from 'yaml';
import { CHAOS_API_VERSION, KIND_DISRUPTION } from '../../chaos/api/constants.ts';
import type { Disruption } from '../../chaos/api/types.ts';
import { chaosConfig, type ChaosConfig } from '../../chaos/config.ts';
import { formatSpecError, validateCreate } from '../../chaos/validation/index.ts';
import { isPlainObject } from '../../apimachinery/object.ts';
import { readInputFile } from '../input-files.ts';

const isDisruption = (doc: Record<string, unknown>): boolean => doc['apiVersion'] === CHAOS_API_VERSION && doc['kind'] === KIND_DISRUPTION;

/** What is wrong with one Disruption; empty: valid. */
function check(doc: Record<string, unknown>, config: ChaosConfig): string[] {
  if (!isPlainObject(doc['metadata'])) return ['metadata: Required value'];
  if (!isPlainObject(doc['spec'])) return ['spec: Required value'];
  const verdict = validateCreate(doc as Disruption, { config, now: new Date() });
  return [...(verdict.header ? [verdict.header] : []), ...verdict.errors.map(formatSpecError)];
}

/**
 * Validates every Disruption of every file (other kinds, such as the target Deployment next to it, are skipped);
 * prints a line per document; true when all are valid and there was at least one.
 */
export function validateDisruptionFiles(files: readonly string[], config: ChaosConfig, out: (line: string) => void, err: (line: string) => void): boolean {
  let ok = true;
  let disruptions = 0;
  for (const file of files) {
    const docs = parseAllDocuments(readInputFile('file', file));
    docs.forEach((doc, index) => {
      const where = `${file === '-' ? 'stdin' : file}, document ${index + 1}`;
      if (doc.errors.length > 0) {
        ok = false;
        err(`${where}: invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
        return;
      }
      const value: unknown = doc.toJS();
      if (value === null || value === undefined) return;
      if (!isPlainObject(value)) {
        ok = false;
        err(`${where}: not a YAML map`);
        return;
      }
      if (!isDisruption(value)) {
        out(`${where}: skipped, not a ${KIND_DISRUPTION} (apiVersion ${JSON.stringify(value['apiVersion'] ?? null)}, kind ${JSON.stringify(value['kind'] ?? null)})`);
        return;
      }
      disruptions++;
      const meta = isPlainObject(value['metadata']) ? value['metadata'] : {};
      const name = `disruption/${typeof meta['name'] === 'string' ? meta['name'] : '(unnamed)'}`;
      const problems = check(value, config);
      if (problems.length === 0) {
        out(`${name} valid (${where})`);
        return;
      }
      ok = false;
      err(`${name} invalid (${where}):`);
      for (const p of problems) err(`  ${p.replace(/\n/g, '\n    ')}`);
    });
  }
  if (disruptions === 0) {
    err(`no ${CHAOS_API_VERSION} ${KIND_DISRUPTION} in ${files.join(', ')}`);
    return false;
  }
  return ok;
}

export function chaosCommand(): Command {
  const chaos = new Command('chaos').description('work with chaos-controller Disruptions (chaos.datadoghq.com/v1beta1)');
  chaos
    .command('validate')
    .description('validate Disruptions as the admission webhook does, without a cluster (the safety nets that count targets are skipped)')
    .requiredOption('-f, --filename <file...>', 'YAML files of one or more Disruptions ("-": standard input)')
    .option('--no-safemode', "skip the safety nets, as a controller run with --safemode-enable=false (upstream's chart default) does")
    .action((opts: { filename: string[]; safemode: boolean }) => {
      try {
        const ok = validateDisruptionFiles(
          opts.filename,
          chaosConfig({ safemode: { enable: opts.safemode } }),
          (line) => process.stdout.write(`${line}\n`),
          (line) => process.stderr.write(`${line}\n`),
        );
        if (!ok) process.exitCode = 1;
      } catch (e) {
        process.stderr.write(`${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n`);
        process.exitCode = 1;
      }
    });
  return chaos;
}
