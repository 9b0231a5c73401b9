// What the server needs of a GitHub delivery's body: the JSON payload (sent as application/json, or as the
// `payload` field of a form, GitHub's default content type) and, for push and pull_request, the repository it
// is about. Everything else in the payload (refs, SHAs, PR numbers) is left to the Repository controller's
// full sync, which reads GitHub itself: a poke carries no data that could go stale or be forged.
import { WebhookRequestError } from './request-error.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export interface GitHubRepositoryName {
  /** repository.owner.login */
  owner: string;
  /** repository.name */
  name: string;
}

/** The payload as a JSON object; a body that is not one is the sender's fault (400), as is an unknown content type (415). */
export function decodePayload(contentType: string | undefined, body: string): Record<string, unknown> {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  let json: string;
  if (mediaType === 'application/json') json = body;
  else if (mediaType === 'application/x-www-form-urlencoded') {
    const field = new URLSearchParams(body).get('payload');
    if (field === null) throw new WebhookRequestError(400, 'form body has no payload field');
    json = field;
  } else {
    throw new WebhookRequestError(415, `content type ${mediaType || '(none)'} is not supported: set the webhook's content type to application/json`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch (error) {
    throw new WebhookRequestError(400, `malformed JSON payload: ${messageOf(error)}`);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new WebhookRequestError(400, 'the payload is not a JSON object');
  return payload as Record<string, unknown>;
}

/** repository.owner.login and repository.name, as push and pull_request payloads carry them. */
export function repositoryOf(payload: Record<string, unknown>): GitHubRepositoryName {
  const repository = payload['repository'];
  const record = typeof repository === 'object' && repository !== null ? (repository as Record<string, unknown>) : undefined;
  const owner = record?.['owner'];
  const login = typeof owner === 'object' && owner !== null ? (owner as Record<string, unknown>)['login'] : undefined;
  const name = record?.['name'];
  if (typeof login !== 'string' || login === '') throw new WebhookRequestError(400, 'the payload has no repository.owner.login');
  if (typeof name !== 'string' || name === '') throw new WebhookRequestError(400, 'the payload has no repository.name');
  return { owner: login, name };
}
