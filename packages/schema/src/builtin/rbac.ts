/** rbac.authorization/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding (spec doc 2 §2.3). */

import { kindSchema } from './core.js';
import { atomicList, list, obj, str } from './dsl.js';
import { labelSelectorSchema } from './object-meta.js';

const strings = (description: string) => atomicList(description, { type: 'string' });

const policyRule = obj(
  'PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.',
  {
    verbs: strings(
      "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.",
    ),
    apiGroups: strings(
      'APIGroups is the name of the APIGroup that contains the resources. If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.',
    ),
    resources: strings(
      "Resources is a list of resources this rule applies to. '*' represents all resources.",
    ),
    resourceNames: strings(
      'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.',
    ),
    nonResourceURLs: strings(
      'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.',
    ),
  },
  { required: ['verbs'] },
);

const rules = atomicList('Rules holds all the PolicyRules for this Role', policyRule);

const subject = obj(
  'Subject contains a reference to the object or user identities a role binding applies to.',
  {
    kind: str(
      'Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount".',
    ),
    apiGroup: str('APIGroup holds the API group of the referenced subject.'),
    name: str('Name of the object being referenced.'),
    namespace: str('Namespace of the referenced object.'),
  },
  { required: ['kind', 'name'] },
);

const roleRef = obj(
  'RoleRef contains information that points to the role being used',
  {
    apiGroup: str('APIGroup is the group for the resource being referenced'),
    kind: str('Kind is the type of resource being referenced'),
    name: str('Name is the name of resource being referenced'),
  },
  { required: ['apiGroup', 'kind', 'name'] },
);

export const roleSchema = kindSchema(
  'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.',
  { rules },
);

export const clusterRoleSchema = kindSchema(
  'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.',
  {
    rules,
    aggregationRule: obj(
      'AggregationRule is an optional field that describes how to build the Rules for this ClusterRole.',
      {
        clusterRoleSelectors: list(
          "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added",
          labelSelectorSchema,
        ),
      },
    ),
  },
);

const bindingProps = {
  subjects: atomicList('Subjects holds references to the objects the role applies to.', subject),
  roleRef,
};

export const roleBindingSchema = kindSchema(
  'RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace.',
  bindingProps,
);

export const clusterRoleBindingSchema = kindSchema(
  'ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.',
  bindingProps,
);
