// Who a request acts as. Bosun has one bearer token and no RBAC, so every request is this administrator:
// SelfSubjectReview answers with it and admission webhooks see it as request.userInfo.
export interface ServerUser {
  readonly username: string;
  readonly groups: readonly string[];
}

export const serverUser: ServerUser = { username: 'bosun-admin', groups: ['system:masters', 'system:authenticated'] };
