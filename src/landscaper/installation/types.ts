// What every part of the installation controller is handed: clients, caches, clock and options.
import type { Logger } from 'pino';
import type { KubeClient } from '../../client/client.ts';
import type { EventRecorder, Informer, StatusWriter } from '../../runtime/index.ts';
import type { Context } from '../api/context.ts';
import type { Execution } from '../api/execution.ts';
import type { Installation } from '../api/installation.ts';

export interface InstallationControllerOptions {
  /** Keys reconciled in parallel; default 4. */
  concurrency?: number;
  /** Event recorder component name; default 'landscaper-installation-controller'. */
  component?: string;
  /** Injectable clock (tests). */
  now?: () => Date;
  /** Job IDs (tests); default crypto.randomUUID. */
  newJobID?: () => string;
}

export interface Deps {
  client: KubeClient;
  installations: Informer<Installation>;
  executions: Informer<Execution>;
  /** Contexts from the manager's cache (the deployers share it): a miss still asks the server. */
  contexts: Informer<Context>;
  recorder: EventRecorder;
  /** The one way the controller writes an installation's status (conflict retry). */
  writer: StatusWriter<Installation>;
  log: Logger;
  now: () => Date;
  newJobID: () => string;
}
