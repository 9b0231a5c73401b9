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
  /** Defaults to the process's (setProcessLogDestination), else stdout. */
  destination?: NodeJS.WritableStream;
  name?: string;
}

let processDestination: NodeJS.WritableStream | undefined;

/** Where loggers given no destination write from now on: the CLI sets it once for its process (--log-format). */
export function setProcessLogDestination(destination: NodeJS.WritableStream): void {
  processDestination = destination;
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
  const destination = options.destination ?? processDestination;
  return destination ? pino(config, destination) : pino(config);
}
