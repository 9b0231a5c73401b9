// A request the kubelet API refuses, with the HTTP code and the plain-text message kubelet answers with.
export class KubeletRequestError extends Error {
  override readonly name = 'KubeletRequestError' as const;

  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
