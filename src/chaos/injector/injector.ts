// What every kind of the injector (`bosun inject <kind>`) implements, and what it is given. The lifecycle
// (lifecycle.ts) drives them as upstream's chaos-injector does: inject every injector, write the readiness file
// when all succeeded, wait for a signal or the deadline, clean each with retries, exit.
import type { DisruptionKindName, DisruptionLevel } from '../api/constants.ts';
import type { RuntimeContainer } from '../../client/node-runtime/protocol.ts';
import type { HostWrites } from './host/host-writes.ts';
import type { HostReads } from './host/host-reads.ts';

/** One targeted container, resolved through the node runtime; at node level there is none (the node itself). */
export interface InjectorTarget {
  level: DisruptionLevel;
  /** Absent at node level. */
  container?: RuntimeContainer;
  /** The target pod (pod level) or node (node level) name, from --log-context-target-name. */
  targetName: string;
  nodeName: string;
  /** From --target-pod-ip. */
  podIP?: string;
  /** Node level: a host process in the node's namespaces (the node agent's; upstream's PID 1 without one). */
  nodePid?: number;
}

export interface InjectorLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** What a kind's factory gets: one per targeted container (or one for the node). */
export interface InjectorContext {
  target: InjectorTarget;
  /** Every write to the host goes through here: in dry-run they are logged and skipped. */
  writes: HostWrites;
  /** Reads happen in dry-run too. */
  reads: HostReads;
  log: InjectorLogger;
  dryRun: boolean;
  /** Aborted on the first SIGINT/SIGTERM or at the deadline: long injections stop early. */
  signal: AbortSignal;
}

export interface Injector {
  readonly kind: DisruptionKindName;
  /** Applies the disruption; throws (a typed error) when it could not. */
  inject(): Promise<void>;
  /** Undoes it; idempotent (a second clean, or a clean after a failed inject, succeeds). */
  clean(): Promise<void>;
}

/** Kinds whose injection is redone when a targeted container restarts (upstream's reinjectable kinds, minus containerFailure: #747). */
export const REINJECTABLE_KINDS: readonly DisruptionKindName[] = ['cpu-pressure', 'memory-pressure', 'disk-pressure', 'network-disruption', 'dns-disruption'];

/** One flag of a kind's subcommand, with upstream's name (commander syntax: '--count <count>', '--forced'). */
export interface KindOption {
  flags: string;
  description: string;
  defaultValue?: string | boolean;
}

/** A kind: its subcommand's flags and how it builds an injector per target from their values (camelCased by commander). */
export interface KindDefinition {
  readonly name: DisruptionKindName;
  readonly options: readonly KindOption[];
  create(ctx: InjectorContext, values: Readonly<Record<string, unknown>>): Injector;
}
