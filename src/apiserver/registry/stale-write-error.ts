// A prepared write whose object changed before it could be committed (admission awaited webhooks meanwhile).
// The admitted write path recomputes and retries it, as kube-apiserver's GuaranteedUpdate does.
export class StaleWriteError extends Error {
  override readonly name = 'StaleWriteError' as const;

  constructor() {
    super('the object changed while the write was being admitted');
  }
}
