// A delivery refused for what the sender did: answered with its HTTP status and message, never a 500.

export type RequestErrorStatus = 400 | 401 | 413 | 415 | 501;

export class WebhookRequestError extends Error {
  override readonly name = 'WebhookRequestError' as const;
  readonly status: RequestErrorStatus;

  constructor(status: RequestErrorStatus, message: string) {
    super(message);
    this.status = status;
  }
}
