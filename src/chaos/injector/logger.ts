// The injector's logs: one JSON object per line on stdout, with the --log-context-* fields on every line so
// that a chaos pod's logs say which disruption and target they are about. Only what the code passes is
// logged (flag values, paths, PIDs): no environment, no tokens.
import type { InjectorLogger } from './injector.ts';

const RESERVED = new Set(['level', 'time', 'msg']);

export type LogLine = (line: string) => void;

/** The Error's name and message (a stack would be noise in a chaos pod's log). */
function plain(value: unknown): unknown {
  return value instanceof Error ? `${value.name}: ${value.message}` : value;
}

export function createInjectorLogger(context: Readonly<Record<string, string>>, write: LogLine = (line) => process.stdout.write(`${line}\n`)): InjectorLogger {
  const emit = (level: string, message: string, fields: Record<string, unknown> = {}): void => {
    // level, time and msg are the line's own: a field of the same name cannot replace them.
    const extra = Object.fromEntries(Object.entries(fields).flatMap(([key, value]) => (RESERVED.has(key) ? [] : [[key, plain(value)]])));
    write(JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...context, ...extra }));
  };
  return {
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
  };
}
