// What a write is asked with and answers: the options of create, update and delete, and the object as the client
// sees it. Shared by the registry's write sequence, the handlers that parse them and admission that forwards them.
import type { KubeObject } from '../../apimachinery/object.ts';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: FieldValidation;
}

export type CreateOptions = WriteOptions & { keepManagedFields?: boolean };
export type UpdateOptions = WriteOptions & { userAgent?: string; skipManagedFields?: boolean };

export interface DeleteOptions {
  dryRun?: boolean;
  propagationPolicy?: PropagationPolicy;
  /** Seconds before a gracefully deleted object (a pod) may be removed; see ResourceType.gracefulDeletePeriod. */
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** The object as the client sees it, serialised once. */
export interface WriteResult {
  json: string;
  warnings: string[];
}

export interface DeleteResult {
  json: string;
  deleted: boolean;
}

/** Keeps metadata.managedFields current for non-apply writes (server-side apply does its own). */
export interface ManagedFieldsRecorder {
  recordUpdate(
    old: KubeObject | undefined,
    updated: KubeObject,
    manager: string,
    apiVersion: string,
    subresource: string | undefined,
    time: string,
  ): void;
}
