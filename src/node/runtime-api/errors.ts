// What a runtime API handler throws to answer with an HTTP status; anything else is a 500.
export class RuntimeApiError extends Error {
  override readonly name = 'RuntimeApiError' as const;

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new RuntimeApiError(404, message);
export const forbidden = (message: string) => new RuntimeApiError(403, message);
export const badRequest = (message: string) => new RuntimeApiError(400, message);
