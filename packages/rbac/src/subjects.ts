/**
 * Subjects of bindings (spec doc 2 §2.3): `User` and `Group` by name (case sensitive), and
 * `ServiceAccount`, whose user is `system:serviceaccount:<namespace>:<name>` in groups
 * `system:serviceaccounts` and `system:serviceaccounts:<namespace>`.
 */
import type { UserInfo } from '@orchard/meta';
import type { Subject } from './types.js';

/** The username prefix of service-account users; the rest is `<namespace>:<name>`. */
export const serviceAccountUsernamePrefix = 'system:serviceaccount:';
/** The group every service-account user is in (each also in `system:serviceaccounts:<namespace>`). */
export const allServiceAccountsGroup = 'system:serviceaccounts';

/** `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${serviceAccountUsernamePrefix}${namespace}:${name}`;
}

/** The namespace and name of a service-account user, or `undefined` for any other user. */
export function parseServiceAccountUsername(
  username: string,
): { namespace: string; name: string } | undefined {
  if (!username.startsWith(serviceAccountUsernamePrefix)) return undefined;
  const rest = username.slice(serviceAccountUsernamePrefix.length);
  const parts = rest.split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

/** The groups a service account's user is in: `system:serviceaccounts` and `system:serviceaccounts:<ns>`. */
export function serviceAccountGroups(namespace: string): string[] {
  return [allServiceAccountsGroup, `${allServiceAccountsGroup}:${namespace}`];
}

/**
 * The user name a subject stands for in the evaluator's index: `u:<name>` for a User or a
 * ServiceAccount (its user name; an absent namespace is the binding's), `g:<name>` for a Group, or
 * `undefined` for a kind no user can match.
 */
export function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case 'User':
      return `u:${subject.name}`;
    case 'Group':
      return `g:${subject.name}`;
    case 'ServiceAccount': {
      const ns = subject.namespace || bindingNamespace;
      if (!ns) return undefined;
      return `u:${serviceAccountUsername(ns, subject.name)}`;
    }
    default:
      return undefined;
  }
}

/** True when the subject names this user (directly, through a group, or as its service account). */
export function subjectAppliesTo(subject: Subject, user: UserInfo, bindingNamespace: string): boolean {
  const key = subjectKey(subject, bindingNamespace);
  if (key === undefined) return false;
  if (key.startsWith('u:')) return key.slice(2) === user.username;
  return user.groups.includes(key.slice(2));
}

/** How a reason names a subject: `User "alice"`, `Group "g"`, `ServiceAccount "name/ns"`. */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') {
    return `ServiceAccount "${subject.name}/${subject.namespace || bindingNamespace}"`;
  }
  return `${subject.kind} "${subject.name}"`;
}
