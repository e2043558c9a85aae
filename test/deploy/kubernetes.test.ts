/**
 * deploy/kubernetes/: every YAML file there (by glob, so files added later are covered) is
 * checked against the Kubernetes API schemas with kubernetes-models (types, required fields,
 * enums and formats of the OpenAPI schemas; like `kubectl apply` without strict field validation,
 * it does not reject unknown fields). Then the contract of the ledger-mm manifests: one replica
 * with its store on a PersistentVolumeClaim, probes, a stop grace above the shutdown grace, a
 * non-root read-only container with its keys as files from a Secret and its config from a
 * ConfigMap that the daemon reloads, scrape annotations and the `ledger-mm` Service.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { KUBERNETES_DIR, shutdownGraceMs, yamlDocuments } from './support/deploy-files.js';

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;

/** The kubernetes-models module of an apiVersion: `apps/v1` → `kubernetes-models/apps/v1`. */
async function modelOf(apiVersion: string, kind: string): Promise<ModelClass> {
  const mod = (await import(`kubernetes-models/${apiVersion}`).catch(() => {
    throw new Error(`no Kubernetes schema for apiVersion ${apiVersion}`);
  })) as Record<string, unknown>;
  const cls = mod[kind];
  if (typeof cls !== 'function') throw new Error(`no Kubernetes schema for ${apiVersion} ${kind}`);
  return cls as ModelClass;
}

function manifestFiles(): string[] {
  return fs
    .readdirSync(KUBERNETES_DIR)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => path.join(KUBERNETES_DIR, f));
}

function allObjects(): { file: string; object: K8sObject }[] {
  return manifestFiles().flatMap((file) =>
    yamlDocuments(file).map((object) => ({ file: path.basename(file), object: object as K8sObject })),
  );
}

function find(kind: string, name: string): K8sObject {
  const hit = allObjects().find((o) => o.object.kind === kind && o.object.metadata.name === name);
  if (hit === undefined) throw new Error(`deploy/kubernetes/ has no ${kind} ${name}`);
  return hit.object;
}

describe('deploy/kubernetes: schema validation', () => {
  it('every document of every YAML file there is a valid Kubernetes object', async () => {
    const files = manifestFiles();
    expect(files.length).toBeGreaterThanOrEqual(3);
    const failures: string[] = [];
    let count = 0;
    for (const { file, object } of allObjects()) {
      const where = `${file}: ${object.kind} ${object.metadata?.name ?? '(no name)'}`;
      try {
        const Model = await modelOf(object.apiVersion, object.kind);
        new Model(object).validate();
        count++;
      } catch (err) {
        failures.push(`${where}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThanOrEqual(3);
  });

  it('the validation is real: it refuses a broken StatefulSet', async () => {
    const good = structuredClone(find('StatefulSet', 'ledger-mm')) as unknown as {
      spec: { replicas: unknown; template: { spec: { containers: { livenessProbe: unknown }[] } } };
    };
    const StatefulSet = await modelOf('apps/v1', 'StatefulSet');
    expect(() => new StatefulSet(good).validate()).not.toThrow();
    const wrongType = structuredClone(good);
    wrongType.spec.replicas = 'one';
    expect(() => new StatefulSet(wrongType).validate()).toThrow(/replicas must be integer/);
    const noPort = structuredClone(good);
    noPort.spec.template.spec.containers[0]!.livenessProbe = { httpGet: { path: '/healthz' } };
    expect(() => new StatefulSet(noPort).validate()).toThrow(/required property port/);
  });
});

describe('deploy/kubernetes: the ledger-mm contract', () => {
  const sts = find('StatefulSet', 'ledger-mm') as K8sObject & {
    spec: {
      replicas: number;
      serviceName: string;
      selector: { matchLabels: Record<string, string> };
      volumeClaimTemplates: { metadata: { name: string }; spec: { accessModes: string[] } }[];
      template: {
        metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
        spec: {
          terminationGracePeriodSeconds: number;
          securityContext: { runAsNonRoot?: boolean; runAsUser?: number };
          containers: {
            name: string;
            env: { name: string; value?: string; valueFrom?: unknown }[];
            livenessProbe: { httpGet: { path: string; port: string | number } };
            readinessProbe: { httpGet: { path: string; port: string | number } };
            ports: { name: string; containerPort: number }[];
            securityContext: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
            volumeMounts: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[];
          }[];
          volumes: { name: string; configMap?: { name: string }; secret?: { secretName: string } }[];
        };
      };
    };
  };
  const pod = sts.spec.template.spec;
  const container = pod.containers.find((c) => c.name === 'ledger-mm')!;
  const env = new Map(container.env.map((e) => [e.name, e.value]));
  const mountOf = (volume: string) => container.volumeMounts.find((m) => m.name === volume);

  it('runs one replica with its store on a PersistentVolumeClaim at the store path', () => {
    expect(sts.spec.replicas).toBe(1);
    const claim = sts.spec.volumeClaimTemplates.find((c) => c.metadata.name === 'store');
    expect(claim?.spec.accessModes).toEqual(['ReadWriteOnce']);
    expect(path.dirname(env.get('LEDGER_MM_STORE_PATH') ?? '')).toBe(mountOf('store')?.mountPath);
  });

  it('gives the daemon its shutdown grace plus at least 15 s before SIGKILL', () => {
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(shutdownGraceMs().run / 1000 + 15);
  });

  it('probes liveness on /healthz and readiness on /readyz at the metrics port', () => {
    const port = container.ports.find((p) => p.name === 'metrics');
    expect(port?.containerPort).toBe(Number(env.get('LEDGER_MM_METRICS_PORT')));
    expect(env.get('LEDGER_MM_METRICS_HOST')).toBe('0.0.0.0');
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
  });

  it('runs as non-root on a read-only root filesystem', () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).not.toBe(0);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
  });

  it('reads its API key and signing key as files of a Secret, never from an env value', () => {
    const keys = pod.volumes.find((v) => v.name === 'keys');
    expect(keys?.secret?.secretName).toBe('ledger-mm-keys');
    const dir = mountOf('keys')!.mountPath;
    expect(mountOf('keys')?.readOnly).toBe(true);
    expect(path.dirname(env.get('LEDGER_MM_API_KEY_FILE') ?? '')).toBe(dir);
    expect(path.dirname(env.get('LEDGER_MM_SIGNING_KEY_FILE') ?? '')).toBe(dir);
    expect(env.has('LEDGER_MM_API_KEY')).toBe(false);
  });

  it('takes its config from a ConfigMap mounted as a directory (so updates reach the pod and reload)', () => {
    const config = pod.volumes.find((v) => v.name === 'config');
    const cm = find('ConfigMap', config!.configMap!.name);
    const mount = mountOf('config')!;
    // A subPath mount never sees ConfigMap updates.
    expect(mount.subPath).toBeUndefined();
    const file = env.get('LEDGER_MM_CONFIG') ?? '';
    expect(path.dirname(file)).toBe(mount.mountPath);
    expect(Object.keys(cm.data ?? {})).toContain(path.basename(file));
  });

  it("the ConfigMap's config file is a valid daemon config (the real loader, keys from files)", () => {
    const cm = find('ConfigMap', 'ledger-mm-config');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-k8s-'));
    try {
      const file = path.join(dir, 'ledger-mm.json');
      fs.writeFileSync(file, cm.data!['ledger-mm.json']!);
      fs.writeFileSync(path.join(dir, 'api-key'), 'mm_ak_k8stest.0123456789abcdef0123456789abcdef\n');
      const config = loadConfig({
        configFiles: [],
        cwd: dir,
        env: {
          LEDGER_MM_CONFIG: file,
          LEDGER_MM_API_KEY_FILE: path.join(dir, 'api-key'),
          LEDGER_MM_SIGNING_KEY_FILE: path.join(dir, 'signing.key'),
          LEDGER_MM_STORE_PATH: env.get('LEDGER_MM_STORE_PATH'),
        },
      });
      expect(config.pairs.length).toBeGreaterThan(0);
      expect(config.venue.baseUrl).toMatch(/^https:\/\//);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is scraped through pod annotations, and the Service ledger-mm selects the pod', () => {
    const a = sts.spec.template.metadata.annotations ?? {};
    expect(a['prometheus.io/scrape']).toBe('true');
    expect(a['prometheus.io/port']).toBe(env.get('LEDGER_MM_METRICS_PORT'));
    const svc = find('Service', 'ledger-mm') as K8sObject & {
      spec: {
        selector: Record<string, string>;
        ports: { port: number }[];
        publishNotReadyAddresses?: boolean;
      };
    };
    expect(sts.spec.serviceName).toBe('ledger-mm');
    for (const [k, v] of Object.entries(svc.spec.selector))
      expect(sts.spec.template.metadata.labels[k]).toBe(v);
    expect(sts.spec.selector.matchLabels).toEqual(svc.spec.selector);
    expect(svc.spec.ports.map((p) => p.port)).toContain(Number(env.get('LEDGER_MM_METRICS_PORT')));
    expect(svc.spec.publishNotReadyAddresses).toBe(true);
  });
});
