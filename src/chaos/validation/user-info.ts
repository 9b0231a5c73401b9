// The UserInfo annotation: the creator's authentication/v1 UserInfo as JSON, written by the mutating webhook on
// create (overwriting whatever the manifest says, so nobody can claim another identity) and immutable after.
import type { UserInfo } from '../../apimachinery/admission-review.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { USER_INFO_ANNOTATION } from '../api/constants.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** Go's json.Marshal of authv1.UserInfo: its field order, empty fields left out. */
export function userInfoJson(user: UserInfo): string {
  return JSON.stringify({
    ...(user.username ? { username: user.username } : {}),
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups && user.groups.length > 0 ? { groups: user.groups } : {}),
    ...(user.extra && Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}),
  });
}

export class UserInfoAnnotationError extends Error {
  override readonly name = 'UserInfoAnnotationError' as const;
}

/** The annotation parsed; undefined when absent. */
export function readUserInfo(obj: KubeObject): UserInfo | undefined {
  const text = obj.metadata.annotations?.[USER_INFO_ANNOTATION];
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    return parsed as UserInfo;
  } catch (err) {
    throw new UserInfoAnnotationError(`unable to unmarshal user info from uInfo: ${messageOf(err)}`);
  }
}
