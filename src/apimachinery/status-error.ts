// Typed API errors that carry a metav1.Status: thrown by the server's handlers, parsed back by clients.
import type { Status, StatusCause, StatusDetails } from './object.ts';

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'Forbidden'
  | 'Unauthorized'
  | 'Expired'
  | 'Gone'
  | 'UnsupportedMediaType'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'TooManyRequests'
  | 'Timeout'
  | 'InternalError'
  | 'ServiceUnavailable';

export class StatusError extends Error {
  override readonly name = 'StatusError' as const;
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;

  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  toStatus(): Status {
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details) status.details = this.details;
    return status;
  }

  static fromStatus(status: Status): StatusError {
    return new StatusError(status.code, (status.reason ?? 'InternalError') as StatusReason, status.message ?? '', status.details);
  }
}

/** "widgets.example.com" — how Kubernetes names a resource in messages. */
export interface ResourceName {
  group: string;
  resource: string;
}

function qualified(r: ResourceName): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

export const errors = {
  notFound(r: ResourceName, name: string): StatusError {
    return new StatusError(404, 'NotFound', `${qualified(r)} "${name}" not found`, { name, group: r.group, kind: r.resource });
  },
  alreadyExists(r: ResourceName, name: string): StatusError {
    return new StatusError(409, 'AlreadyExists', `${qualified(r)} "${name}" already exists`, { name, group: r.group, kind: r.resource });
  },
  conflict(r: ResourceName, name: string, why = 'the object has been modified; please apply your changes to the latest version and try again'): StatusError {
    return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(r)} "${name}": ${why}`, { name, group: r.group, kind: r.resource });
  },
  invalid(kind: string, group: string, name: string, causes: StatusCause[]): StatusError {
    const summary = causes.map((c) => (c.field ? `${c.field}: ${c.message ?? ''}` : c.message ?? '')).join(', ');
    const head = `${group ? `${kind}.${group}` : kind} "${name}" is invalid`;
    return new StatusError(422, 'Invalid', causes.length ? `${head}: ${causes.length > 1 ? `[${summary}]` : summary}` : head, {
      name,
      group,
      kind,
      causes,
    });
  },
  badRequest(message: string): StatusError {
    return new StatusError(400, 'BadRequest', message);
  },
  forbidden(message: string, details?: StatusDetails): StatusError {
    return new StatusError(403, 'Forbidden', message, details);
  },
  unauthorized(): StatusError {
    return new StatusError(401, 'Unauthorized', 'Unauthorized');
  },
  expired(message: string): StatusError {
    return new StatusError(410, 'Expired', message);
  },
  unsupportedMediaType(message: string): StatusError {
    return new StatusError(415, 'UnsupportedMediaType', message);
  },
  methodNotAllowed(message: string): StatusError {
    return new StatusError(405, 'MethodNotAllowed', message);
  },
  notAcceptable(message: string): StatusError {
    return new StatusError(406, 'NotAcceptable', message);
  },
  internal(message: string): StatusError {
    return new StatusError(500, 'InternalError', `Internal error occurred: ${message}`);
  },
  pathNotFound(): StatusError {
    return new StatusError(404, 'NotFound', 'the server could not find the requested resource');
  },
};
