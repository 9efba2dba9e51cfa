import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./kubectl-demo.sh', import.meta.url));
const kubectl = process.env.KUBECTL ?? '/usr/bin/kubectl';

// Needs stock kubectl at /usr/bin/kubectl (.ci/run installs Debian's kubernetes-client); skipped only where it is absent.
describe.skipIf(!existsSync(kubectl))('examples/kubectl-reference-server', () => {
  it('starts orchard-apiserver and drives it with stock kubectl', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          'bash',
          [script],
          { timeout: 60_000, env: { ...process.env, KUBECTL: kubectl } },
          (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
        );
      },
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^# server: https:\/\/127\.0\.0\.1:\d+$/m);
    expect(stdout).toContain('namespace/demo created');
    expect(stdout).toContain('configmap/settings created');
    expect(stdout).toMatch(/data:\n {2}color: red\n {2}size: "3"\nkind: ConfigMap/);
    expect(stderr).toContain(
      'Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .data.color',
    );
    expect(stdout).toContain('configmap/settings serverside-applied');
    expect(stdout).toContain('{"color":"blue","owner":"team-a","size":"3"}');
    expect(stdout).toContain('team-a Apply\nkubectl-create Update\n');
    expect(stdout).toContain('namespace "demo" deleted');
    expect(stdout).toContain('# done');
  }, 70_000);
});
