// The runtime's structured JSON logger (pino). Secret-bearing fields are redacted wherever they appear
// one level down, so an object or error logged by mistake does not leak a token or a Secret's data.
import { pino, type Logger, type LevelWithSilent } from 'pino';

export const redactedPaths = [
  'token',
  'password',
  'authorization',
  'kubeconfig',
  '*.token',
  '*.bearerToken',
  '*.password',
  '*.authorization',
  '*.Authorization',
  '*.kubeconfig',
  '*.data',
  '*.stringData',
  '*.headers.authorization',
  '*["client-key-data"]',
];

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** Defaults to stdout. */
  destination?: NodeJS.WritableStream;
  name?: string;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const config = {
    level: options.level ?? 'info',
    ...(options.name ? { name: options.name } : {}),
    redact: { paths: redactedPaths, censor: '[REDACTED]' },
    // The PID/hostname pair is noise in a pod's log; the reconcile fields carry the context.
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}
