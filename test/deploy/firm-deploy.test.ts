/**
 * The deployment examples of a firm of parties (docs/operations/parties.md): the compose override
 * deploy/docker-compose.firm.yml and the Kubernetes overlay deploy/kubernetes/firm/ mount every
 * party's key files where config/examples/four-parties.json names them, for the daemon and the
 * watchdog, and drop the single-party key variables. The overlay is rendered with `kubectl
 * kustomize` (skipped without kubectl) and every object checked against the Kubernetes schemas.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { ROOT, yamlDocuments } from './support/deploy-files.js';

const FOUR_PARTIES = path.join(ROOT, 'config/examples/four-parties.json');
const firm = loadConfig({ configFiles: [FOUR_PARTIES], env: {}, cwd: ROOT }).firm;
/** The one directory every party's key files are in. */
const keyDirs = [
  ...new Set(firm.parties.flatMap((p) => [path.dirname(p.apiKeyFile), path.dirname(p.signingKeyFile)])),
];

describe('deploy/docker-compose.firm.yml', () => {
  const compose = yamlDocuments(path.join(ROOT, 'deploy/docker-compose.firm.yml'))[0] as {
    services: Record<string, { command: string[]; volumes: string[]; environment?: Record<string, string> }>;
  };

  it('mounts the parties’ key files and four-parties.json for the daemon and the watchdog', () => {
    expect(keyDirs).toEqual(['/run/secrets/ledger-mm']);
    expect(Object.keys(compose.services).sort()).toEqual(['ledger-mm', 'ledger-mm-watchdog']);
    for (const [name, s] of Object.entries(compose.services)) {
      const config = s.command[s.command.indexOf('--config') + 1];
      expect(s.command[0], name).toBe(name === 'ledger-mm' ? 'run' : 'watchdog');
      expect(s.volumes, name).toEqual(
        expect.arrayContaining([
          `./secrets/firm:${keyDirs[0]}:ro`,
          `../config/examples/four-parties.json:${config}:ro`,
        ]),
      );
      const source = s.volumes.find((v) => v.endsWith(`:${config}:ro`))!.split(':')[0]!;
      expect(fs.existsSync(path.join(ROOT, 'deploy', source)), source).toBe(true);
    }
    expect(compose.services['ledger-mm-watchdog']!.environment).toEqual({
      LEDGER_MM_API_KEY_FILE: '',
      LEDGER_MM_SIGNING_KEY_FILE: '',
    });
  });
});

function kubectl(): string | null {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return 'kubectl';
  } catch {
    return null;
  }
}

interface Workload {
  kind: string;
  apiVersion: string;
  metadata: { name: string };
  spec: {
    template: {
      spec: {
        initContainers: { name: string; command: string[] }[];
        containers: {
          name: string;
          env: { name: string; value?: string }[];
          volumeMounts: { name: string; mountPath: string }[];
        }[];
        volumes: { name: string; configMap?: { name: string } }[];
      };
    };
  };
}

describe.skipIf(kubectl() === null)('deploy/kubernetes/firm (kubectl kustomize)', () => {
  const rendered = (): Record<string, unknown>[] => {
    const text = execFileSync(
      'kubectl',
      ['kustomize', '--load-restrictor=LoadRestrictionsNone', path.join(ROOT, 'deploy/kubernetes/firm')],
      { encoding: 'utf8' },
    );
    return parseAllDocuments(text).map((d) => d.toJSON() as Record<string, unknown>);
  };

  it('renders valid Kubernetes objects, the base ones and the firm ConfigMap', async () => {
    const objects = rendered();
    const failures: string[] = [];
    for (const o of objects) {
      const apiVersion = o['apiVersion'] as string;
      const module = apiVersion.startsWith('monitoring.coreos.com/')
        ? `@kubernetes-models/prometheus-operator/${apiVersion}`
        : `kubernetes-models/${apiVersion}`;
      const Model = ((await import(module)) as Record<string, new (d: unknown) => { validate(): void }>)[
        o['kind'] as string
      ]!;
      try {
        new Model(o).validate();
      } catch (err) {
        failures.push(`${o['kind'] as string}: ${String(err)}`);
      }
    }
    expect(failures).toEqual([]);
    const firmMap = objects.find(
      (o) => o['kind'] === 'ConfigMap' && (o['metadata'] as { name: string }).name === 'ledger-mm-firm',
    );
    const json = (firmMap?.['data'] as Record<string, string> | undefined)?.['firm.json'];
    expect(JSON.parse(json ?? 'null')).toEqual({
      firm: (JSON.parse(fs.readFileSync(FOUR_PARTIES, 'utf8')) as { firm: unknown }).firm,
    });
  });

  it.each([
    ['StatefulSet', 'ledger-mm', 'ledger-mm'],
    ['Deployment', 'ledger-mm-watchdog', 'watchdog'],
  ])(
    '%s %s: every key of the Secret as a 0600 file where the parties’ files are, firm.json layered',
    (kind, name, container) => {
      const w = rendered().find(
        (o) => o['kind'] === kind && (o['metadata'] as { name: string }).name === name,
      ) as Workload | undefined;
      const pod = w!.spec.template.spec;
      const c = pod.containers.find((x) => x.name === container)!;
      const env = new Map(c.env.map((e) => [e.name, e.value]));
      expect(env.has('LEDGER_MM_API_KEY_FILE')).toBe(false);
      expect(env.has('LEDGER_MM_SIGNING_KEY_FILE')).toBe(false);
      expect(env.get('LEDGER_MM_CONFIG')!.split(',')).toContain('/etc/ledger-mm-firm/firm.json');
      const mounts = new Map(c.volumeMounts.map((m) => [m.mountPath, m.name]));
      expect(mounts.get('/etc/ledger-mm-firm')).toBe('firm-config');
      expect(mounts.get(keyDirs[0]!)).toBe('keys');
      expect(pod.volumes.find((v) => v.name === 'firm-config')?.configMap?.name).toBe('ledger-mm-firm');
      const init = pod.initContainers.find((x) => x.name === 'keys')!.command.join(' ');
      expect(init).toMatch(
        /for f in \/run\/secrets\/ledger-mm-source\/\*; do install -m 0600 "\$f" "\/run\/secrets\/ledger-mm\/\$\{f##\*\/\}"/,
      );
    },
  );
});
