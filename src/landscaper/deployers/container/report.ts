// What the wait program hands the deployer: one line on its log, `<marker> <JSON>`, with the exports file's
// text and the state archive. The pod needs no API credentials for it (Bosun has no ServiceAccount tokens
// yet); the deployer reads the wait container's log with its own.
import { parse as parseYaml } from 'yaml';
import type { AnyJSON } from '../../api/shared.ts';

export const REPORT_MARKER = 'BOSUN-CONTAINER-DEPLOYER-REPORT';

export interface WaitReport {
  /** The exports file's text; undefined when the program wrote none. */
  exports?: string;
  /** base64 of the state archive. */
  state: string;
}

export function formatReport(report: WaitReport): string {
  return `${REPORT_MARKER} ${JSON.stringify(report)}\n`;
}

/** The report in a wait container's log; throws when the log has none (the wait program did not finish). */
export function parseReport(log: string): WaitReport {
  const line = log.split('\n').reverse().find((l) => l.startsWith(`${REPORT_MARKER} `));
  if (line === undefined) throw new Error('the wait container wrote no report');
  const parsed = JSON.parse(line.slice(REPORT_MARKER.length + 1)) as Partial<WaitReport>;
  if (typeof parsed.state !== 'string') throw new Error('the wait container report has no state');
  return { state: parsed.state, ...(typeof parsed.exports === 'string' ? { exports: parsed.exports } : {}) };
}

/**
 * The exports file (YAML or JSON, upstream reads it with yaml.Unmarshal) as the JSON the export Secret's
 * `config` key holds; it must be an object.
 */
export function parseExports(text: string): string {
  let value: unknown;
  try {
    value = parseYaml(text) as unknown;
  } catch (err) {
    throw new Error(`exports file is neither JSON nor YAML: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (value === null || value === undefined) return '{}';
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error('exports file must hold an object of export values');
  return JSON.stringify(value as AnyJSON);
}

/** The last `count` non-empty lines of a log. */
export function lastLines(log: string, count: number): string {
  return log.split('\n').filter((l) => l.trim() !== '').slice(-count).join('\n');
}
