// --log-format of the commands that log (up, controllers, node): pino's JSON lines for collectors, or one
// readable line per entry for a person at a terminal. Redaction happens in pino, before either format.
import { Option } from 'commander';
import { Writable } from 'node:stream';

export type LogFormat = 'text' | 'json';

export function logFormatOption(): Option {
  return new Option('--log-format <format>', 'log lines as text (readable) or json (one object per line); default: text on a terminal, json otherwise')
    .choices(['text', 'json'])
    .default(process.stdout.isTTY ? 'text' : 'json');
}

const LEVELS: Record<number, { name: string; color: string }> = {
  10: { name: 'TRACE', color: '\x1b[90m' },
  20: { name: 'DEBUG', color: '\x1b[90m' },
  30: { name: 'INFO', color: '\x1b[36m' },
  40: { name: 'WARN', color: '\x1b[33m' },
  50: { name: 'ERROR', color: '\x1b[31m' },
  60: { name: 'FATAL', color: '\x1b[41;97m' },
};
const RESET = '\x1b[0m';
const SHOWN_APART = new Set(['level', 'time', 'name', 'msg', 'err']);

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/**
 * One pino JSON line as text: `HH:MM:SS.mmm LEVEL name: message key=value …`, an error's message inline and its
 * stack indented below. A line that is not pino's JSON is passed through unchanged.
 */
export function formatLogLine(line: string, options: { color: boolean }): string {
  let entry: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return line;
    entry = parsed as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = LEVELS[Number(entry['level'])] ?? { name: String(entry['level']), color: '' };
  const time = typeof entry['time'] === 'string' ? entry['time'].slice(11, 23) : '';
  const levelText = level.name.padEnd(5);
  const parts = [time, options.color && level.color ? `${level.color}${levelText}${RESET}` : levelText];
  const source = typeof entry['name'] === 'string' ? `${entry['name']}:` : '';
  if (source) parts.push(source);
  if (entry['msg'] !== undefined) parts.push(String(entry['msg']));
  const err = entry['err'] as { message?: unknown; stack?: unknown } | undefined;
  if (err !== undefined) parts.push(`err=${formatValue(err.message ?? err)}`);
  for (const [key, value] of Object.entries(entry)) {
    if (!SHOWN_APART.has(key)) parts.push(`${key}=${formatValue(value)}`);
  }
  let text = parts.join(' ');
  if (err !== undefined && typeof err.stack === 'string') text += '\n' + err.stack.split('\n').slice(1).map((l) => `    ${l.trim()}`).join('\n');
  return text;
}

/** Where the process's loggers write in `format`: stdout itself, or a formatter in front of it. */
export function logDestination(format: LogFormat, out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): NodeJS.WritableStream {
  if (format === 'json') return out;
  const color = out.isTTY === true && process.env['NO_COLOR'] === undefined;
  let pending = '';
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      if (lines.length > 0) out.write(lines.map((l) => formatLogLine(l, { color }) + '\n').join(''));
      done();
    },
  });
}
