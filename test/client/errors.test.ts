// Status → typed error mapping, without a server: every reason, the code fallbacks and Retry-After.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '../../src/apimachinery/object.ts';
import { errors as serverErrors } from '../../src/apimachinery/status-error.ts';
import {
  AlreadyExistsError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GoneError,
  InternalServerError,
  InvalidError,
  KubeApiError,
  NotFoundError,
  TimeoutError,
  TooManyRequestsError,
  UnauthorizedError,
  errorFromStatus,
  isRetryable,
  toStatus,
} from '../../src/client/errors.ts';

function status(code: number, reason?: string, extra: Partial<Status> = {}): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `m${code}`, ...(reason ? { reason } : {}), code, ...extra };
}

test('each reason maps to its class and name', () => {
  const cases: [Status, new (...a: never[]) => KubeApiError, string][] = [
    [status(404, 'NotFound'), NotFoundError, 'NotFoundError'],
    [status(409, 'AlreadyExists'), AlreadyExistsError, 'AlreadyExistsError'],
    [status(409, 'Conflict'), ConflictError, 'ConflictError'],
    [status(422, 'Invalid'), InvalidError, 'InvalidError'],
    [status(403, 'Forbidden'), ForbiddenError, 'ForbiddenError'],
    [status(401, 'Unauthorized'), UnauthorizedError, 'UnauthorizedError'],
    [status(410, 'Expired'), GoneError, 'GoneError'],
    [status(410, 'Gone'), GoneError, 'GoneError'],
    [status(504, 'Timeout'), TimeoutError, 'TimeoutError'],
    [status(429, 'TooManyRequests'), TooManyRequestsError, 'TooManyRequestsError'],
    [status(400, 'BadRequest'), BadRequestError, 'BadRequestError'],
    [status(500, 'InternalError'), InternalServerError, 'InternalServerError'],
  ];
  for (const [s, cls, name] of cases) {
    const err = errorFromStatus(s);
    assert.ok(err instanceof cls, `${s.reason} → ${err.name}`);
    assert.ok(err instanceof KubeApiError);
    assert.ok(err instanceof Error);
    assert.equal(err.name, name);
    assert.equal(err.code, s.code);
    assert.equal(err.message, s.message);
    assert.equal(err.status, s);
  }
});

test('without a reason the HTTP code decides', () => {
  assert.ok(errorFromStatus(status(404)) instanceof NotFoundError);
  assert.ok(errorFromStatus(status(409)) instanceof ConflictError);
  assert.ok(errorFromStatus(status(410)) instanceof GoneError);
  assert.ok(errorFromStatus(status(502)) instanceof InternalServerError);
  assert.equal(errorFromStatus(status(418)).name, 'KubeApiError');
});

test('Invalid exposes causes; server-side StatusError round-trips', () => {
  const server = serverErrors.invalid('ConfigMap', '', 'x', [{ field: 'metadata.name', reason: 'FieldValueInvalid', message: 'bad' }]);
  const err = errorFromStatus(JSON.parse(JSON.stringify(server.toStatus())) as Status);
  assert.ok(err instanceof InvalidError);
  assert.deepEqual(err.causes, [{ field: 'metadata.name', reason: 'FieldValueInvalid', message: 'bad' }]);
  assert.equal(err.details?.name, 'x');
  const conflict = errorFromStatus(serverErrors.conflict({ group: 'example.com', resource: 'widgets' }, 'w').toStatus());
  assert.ok(conflict instanceof ConflictError);
  assert.ok(errorFromStatus(serverErrors.expired('too old').toStatus()) instanceof GoneError);
});

test('TooManyRequests reads Retry-After, else details.retryAfterSeconds', () => {
  const fromHeader = errorFromStatus(status(429, 'TooManyRequests'), '7');
  assert.ok(fromHeader instanceof TooManyRequestsError);
  assert.equal(fromHeader.retryAfter, 7);
  const fromDetails = errorFromStatus(status(429, 'TooManyRequests', { details: { retryAfterSeconds: 3 } }));
  assert.ok(fromDetails instanceof TooManyRequestsError);
  assert.equal(fromDetails.retryAfter, 3);
});

test('a non-Status body still yields a Status', () => {
  const s = toStatus(503, 'upstream connect error');
  assert.equal(s.code, 503);
  assert.equal(s.reason, 'ServiceUnavailable');
  assert.equal(s.message, 'upstream connect error');
  assert.equal(errorFromStatus(s).name, 'ServiceUnavailableError');
});

test('retryable classification', () => {
  assert.ok(isRetryable(errorFromStatus(status(409, 'Conflict'))));
  assert.ok(isRetryable(errorFromStatus(status(500, 'InternalError'))));
  assert.ok(!isRetryable(errorFromStatus(status(404, 'NotFound'))));
  assert.ok(!isRetryable(errorFromStatus(status(422, 'Invalid'))));
});
