import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CreateContainerError,
  loadLocalhostProfile,
  resolveSeccompProfile,
  validateSeccompProfile,
} from './seccomp.js';

const local = (name: string) => ({ seccompProfile: { type: 'Localhost', localhostProfile: name } });
const runtime = { seccompProfile: { type: 'RuntimeDefault' } };
const unconfined = { seccompProfile: { type: 'Unconfined' } };

describe('resolveSeccompProfile (container wins, unset inherits, privileged → Unconfined)', () => {
  it.each([
    ['neither set, no seccompDefault', {}, {}, false, { type: 'Unconfined' }],
    ['neither set, seccompDefault', {}, {}, true, { type: 'RuntimeDefault' }],
    ['pod only: inherited', { securityContext: runtime }, {}, false, { type: 'RuntimeDefault' }],
    [
      'container only',
      {},
      { securityContext: local('a.json') },
      false,
      { type: 'Localhost', localhostProfile: 'a.json' },
    ],
    [
      'container wins over the pod',
      { securityContext: runtime },
      { securityContext: unconfined },
      true,
      { type: 'Unconfined' },
    ],
    [
      'container without a profile inherits',
      { securityContext: local('p.json') },
      { securityContext: { runAsUser: 1 } },
      false,
      { type: 'Localhost', localhostProfile: 'p.json' },
    ],
    [
      'privileged runs unconfined whatever is set',
      { securityContext: runtime },
      { securityContext: { privileged: true, ...local('x.json') } },
      true,
      { type: 'Unconfined' },
    ],
  ])('%s', (_name, pod, container, seccompDefault, want) => {
    expect(resolveSeccompProfile(pod, container, { seccompDefault })).toEqual(want);
  });

  it('refuses a Localhost profile without a name and an unknown type', () => {
    expect(() =>
      resolveSeccompProfile({}, { securityContext: { seccompProfile: { type: 'Localhost' } } }),
    ).toThrow(CreateContainerError);
    expect(() =>
      resolveSeccompProfile({}, { securityContext: { seccompProfile: { type: 'Strict' } } }),
    ).toThrow('unknown seccomp profile type "Strict"');
  });

  it('reads hostile shapes as unset (inherited keys are not profiles)', () => {
    const pod = JSON.parse(
      '{"securityContext":{"__proto__":{"seccompProfile":{"type":"Localhost","localhostProfile":"x"}}}}',
    );
    expect(resolveSeccompProfile(pod, null)).toEqual({ type: 'Unconfined' });
    expect(resolveSeccompProfile('pod', 7)).toEqual({ type: 'Unconfined' });
  });
});

describe('validateSeccompProfile', () => {
  it.each([
    ['a minimal profile', { defaultAction: 'SCMP_ACT_ERRNO' }, []],
    [
      'a full profile',
      {
        defaultAction: 'SCMP_ACT_ERRNO',
        defaultErrnoRet: 1,
        syscalls: [
          { names: ['read', 'write'], action: 'SCMP_ACT_ALLOW' },
          {
            names: ['personality'],
            action: 'SCMP_ACT_ALLOW',
            args: [{ index: 0, value: 8, op: 'SCMP_CMP_EQ' }],
          },
          { names: ['ioctl'], action: 'SCMP_ACT_NOTIFY' },
        ],
      },
      [],
    ],
    ['no defaultAction', { syscalls: [] }, ['defaultAction: Required value']],
    ['an unknown defaultAction', { defaultAction: 'ALLOW' }, ['defaultAction: Unsupported value: "ALLOW"']],
    [
      'SCMP_ACT_NOTIFY as default',
      { defaultAction: 'SCMP_ACT_NOTIFY' },
      ['defaultAction: SCMP_ACT_NOTIFY cannot be the default action'],
    ],
    [
      'a negative defaultErrnoRet',
      { defaultAction: 'SCMP_ACT_ERRNO', defaultErrnoRet: -1 },
      ['defaultErrnoRet: must be a non-negative integer'],
    ],
    ['syscalls not a list', { defaultAction: 'SCMP_ACT_LOG', syscalls: {} }, ['syscalls: must be a list']],
    [
      'bad entries',
      {
        defaultAction: 'SCMP_ACT_LOG',
        syscalls: [{ names: [], action: 'SCMP_ACT_KILL' }, { names: ['x'], action: 'NOPE' }, 3],
      },
      [
        'syscalls[0].names: must be a non-empty list of syscall names',
        'syscalls[1].action: Unsupported value: "NOPE"',
        'syscalls[2]: must be an object',
      ],
    ],
    [
      'bad args',
      {
        defaultAction: 'SCMP_ACT_TRAP',
        syscalls: [{ names: ['x'], action: 'SCMP_ACT_TRACE', args: [{ index: 6, value: -1, op: 'EQ' }] }],
      },
      [
        'syscalls[0].args[0].index: must be 0 to 5',
        'syscalls[0].args[0].value: must be a non-negative integer',
        'syscalls[0].args[0].op: Unsupported value: "EQ"',
      ],
    ],
    ['not an object', [1], ['<root>: must be a JSON object']],
  ])('%s', (_name, doc, want) => {
    expect(validateSeccompProfile(doc)).toEqual(want);
  });

  it('accepts every action of the spec in syscalls[]', () => {
    for (const action of [
      'SCMP_ACT_ERRNO',
      'SCMP_ACT_ALLOW',
      'SCMP_ACT_KILL_PROCESS',
      'SCMP_ACT_KILL_THREAD',
      'SCMP_ACT_KILL',
      'SCMP_ACT_TRAP',
      'SCMP_ACT_NOTIFY',
      'SCMP_ACT_TRACE',
      'SCMP_ACT_LOG',
    ])
      expect(
        validateSeccompProfile({ defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['x'], action }] }),
      ).toEqual([]);
  });
});

describe('loadLocalhostProfile (<root>/seccomp)', () => {
  const root = mkdtempSync(join(tmpdir(), 'nodeagent-seccomp-'));
  const dir = join(root, 'seccomp');
  mkdirSync(join(dir, 'profiles'), { recursive: true });
  writeFileSync(join(dir, 'profiles', 'audit.json'), JSON.stringify({ defaultAction: 'SCMP_ACT_LOG' }));
  writeFileSync(join(dir, 'notify.json'), JSON.stringify({ defaultAction: 'SCMP_ACT_NOTIFY' }));
  writeFileSync(join(dir, 'broken.json'), '{');
  writeFileSync(join(root, 'outside.json'), JSON.stringify({ defaultAction: 'SCMP_ACT_ALLOW' }));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('loads a valid profile by its relative name', () => {
    expect(loadLocalhostProfile(dir, 'profiles/audit.json')).toEqual({ defaultAction: 'SCMP_ACT_LOG' });
  });

  it.each([
    ['a missing file', 'profiles/none.json', 'no such file or directory'],
    ['a name escaping the directory', '../outside.json', 'is outside the profile directory'],
    ['an absolute name', join(root, 'outside.json'), 'is outside the profile directory'],
    ['an invalid profile', 'notify.json', 'defaultAction: SCMP_ACT_NOTIFY cannot be the default action'],
    ['a file that is not JSON', 'broken.json', 'is not JSON'],
  ])('CreateContainerError for %s', (_name, file, message) => {
    let error: unknown;
    try {
      loadLocalhostProfile(dir, file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CreateContainerError);
    expect((error as CreateContainerError).reason).toBe('CreateContainerError');
    expect((error as Error).message).toContain(message);
  });
});
