/**
 * deploy/kubernetes/: every YAML file there (by glob, so files added later are covered) is
 * checked against the Kubernetes API schemas with kubernetes-models, and the Prometheus
 * Operator's objects against its CRD schemas (@kubernetes-models/prometheus-operator): types,
 * required fields, enums, formats and patterns of the OpenAPI schemas; like `kubectl apply`
 * without strict field validation, it does not reject unknown fields. Then the contract of the ledger-mm manifests: one replica
 * with its store on a PersistentVolumeClaim, probes, a stop grace above the shutdown grace, a
 * non-root read-only container with its keys as files from a Secret and its config from a
 * ConfigMap that the daemon reloads, scrape annotations and the `ledger-mm` Service.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ALERTS_FILE, MONITORING_FILE, monitoringYaml } from '../../scripts/kubernetes/monitoring.js';
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

/**
 * The schema module of an apiVersion: `apps/v1` → `kubernetes-models/apps/v1`; the Prometheus
 * Operator's `monitoring.coreos.com/v1` → its published CRD schemas
 * (`@kubernetes-models/prometheus-operator`).
 */
async function modelOf(apiVersion: string, kind: string): Promise<ModelClass> {
  const module = apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${apiVersion}`
    : `kubernetes-models/${apiVersion}`;
  const mod = (await import(module).catch(() => {
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
    expect(files.length).toBeGreaterThanOrEqual(6);
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
    expect(count).toBeGreaterThanOrEqual(11);
    const kinds = new Set(allObjects().map((o) => o.object.kind));
    for (const k of ['ServiceMonitor', 'PrometheusRule', 'NetworkPolicy']) expect(kinds).toContain(k);
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
          initContainers?: {
            name: string;
            command?: string[];
            volumeMounts: { name: string; mountPath: string }[];
          }[];
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

  it('reads its keys as 0600 files copied from the Secret by an init container, never from env', () => {
    const keys = pod.volumes.find((v) => v.name === 'keys') as { emptyDir?: { medium?: string } } | undefined;
    expect(keys?.emptyDir?.medium).toBe('Memory');
    const source = pod.volumes.find((v) => v.name === 'keys-source');
    expect(source?.secret?.secretName).toBe('ledger-mm-keys');
    const dir = mountOf('keys')!.mountPath;
    expect(mountOf('keys')?.readOnly).toBe(true);
    expect(mountOf('keys-source')).toBeUndefined();
    const apiKey = env.get('LEDGER_MM_API_KEY_FILE') ?? '';
    const signingKey = env.get('LEDGER_MM_SIGNING_KEY_FILE') ?? '';
    expect(path.dirname(apiKey)).toBe(dir);
    expect(path.dirname(signingKey)).toBe(dir);
    expect(env.has('LEDGER_MM_API_KEY')).toBe(false);
    const init = pod.initContainers?.find((c) => c.name === 'keys');
    const script = (init?.command ?? []).join(' ');
    const sourceDir = init?.volumeMounts.find((m) => m.name === 'keys-source')?.mountPath ?? '?';
    expect(init?.volumeMounts.find((m) => m.name === 'keys')?.mountPath).toBe(dir);
    for (const file of [apiKey, signingKey]) {
      expect(script).toContain(`install -m 0600 ${sourceDir}/${path.basename(file)} ${file}`);
    }
    // So the daemon's own check of the signing key's mode stays on.
    const cm = find('ConfigMap', 'ledger-mm-config');
    expect(cm.data!['ledger-mm.json']).not.toContain('allowInsecureKeyFile');
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

describe('deploy/kubernetes: monitoring (Prometheus Operator) and network policy', () => {
  it('monitoring.yaml is what scripts/kubernetes/monitoring.ts builds from alerts.yml (npm run kubernetes:monitoring)', async () => {
    expect(
      fs.readFileSync(MONITORING_FILE, 'utf8') === (await monitoringYaml()),
      'monitoring.yaml differs from its source',
    ).toBe(true);
  });

  it('the PrometheusRule holds the groups of deploy/prometheus/alerts.yml, unchanged', () => {
    const rule = find('PrometheusRule', 'ledger-mm') as K8sObject & { spec: { groups: unknown } };
    const alerts = parse(fs.readFileSync(ALERTS_FILE, 'utf8')) as { groups: unknown[] };
    expect(alerts.groups.length).toBeGreaterThan(3);
    expect(rule.spec.groups).toEqual(alerts.groups);
  });

  it('the validation is real: it refuses a broken PrometheusRule and ServiceMonitor', async () => {
    const Rule = await modelOf('monitoring.coreos.com/v1', 'PrometheusRule');
    const rule = structuredClone(find('PrometheusRule', 'ledger-mm')) as unknown as {
      spec: { groups: { rules: Record<string, unknown>[] }[] };
    };
    expect(() => new Rule(rule).validate()).not.toThrow();
    rule.spec.groups[0]!.rules[0]!['for'] = 'five minutes';
    expect(() => new Rule(rule).validate()).toThrow(/for must match pattern/);
    const Monitor = await modelOf('monitoring.coreos.com/v1', 'ServiceMonitor');
    expect(() => new Monitor({ metadata: { name: 'x' }, spec: { endpoints: [] } }).validate()).toThrow(
      /required property selector/,
    );
  });

  it("each ServiceMonitor selects its Service and scrapes the Service's metrics port; job = Service name", () => {
    for (const name of ['ledger-mm', 'ledger-mm-watchdog']) {
      const sm = find('ServiceMonitor', name) as K8sObject & {
        spec: {
          selector: { matchLabels: Record<string, string> };
          endpoints: { port: string }[];
          jobLabel?: string;
        };
      };
      const svc = find('Service', name) as K8sObject & { spec: { ports: { name: string }[] } };
      for (const [k, v] of Object.entries(sm.spec.selector.matchLabels))
        expect(svc.metadata.labels?.[k], k).toBe(v);
      expect(sm.spec.endpoints.map((e) => e.port)).toEqual(['metrics']);
      expect(svc.spec.ports.map((p) => p.name)).toContain('metrics');
      // No jobLabel: the job is the Service's name, which the alerts match (job="ledger-mm").
      expect(sm.spec.jobLabel).toBeUndefined();
      expect(fs.readFileSync(ALERTS_FILE, 'utf8')).toContain(`job="${name}"`);
    }
  });

  it("the daemon's NetworkPolicy: ingress on the metrics port from Prometheus and the watchdog only; egress HTTPS and DNS only", () => {
    const np = find('NetworkPolicy', 'ledger-mm') as K8sObject & {
      spec: {
        podSelector: { matchLabels: Record<string, string> };
        policyTypes: string[];
        ingress: {
          from: { podSelector?: { matchLabels: Record<string, string> } }[];
          ports: { port: number }[];
        }[];
        egress: {
          to: { ipBlock?: { cidr: string }; podSelector?: unknown }[];
          ports: { port: number; protocol: string }[];
        }[];
      };
    };
    const sts = find('StatefulSet', 'ledger-mm') as K8sObject & {
      spec: { selector: { matchLabels: Record<string, string> } };
    };
    expect(np.spec.podSelector.matchLabels).toEqual(sts.spec.selector.matchLabels);
    expect(np.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    // The metrics port of the StatefulSet's container (9464).
    expect(np.spec.ingress.flatMap((r) => r.ports.map((p) => p.port))).toEqual([9464]);
    const sources = np.spec.ingress.flatMap((r) =>
      r.from.map((f) => f.podSelector?.matchLabels['app.kubernetes.io/name']),
    );
    expect(sources.sort()).toEqual(['ledger-mm', 'prometheus']);
    const ports = np.spec.egress.flatMap((r) => r.ports.map((p) => `${p.port}/${p.protocol}`));
    expect([...new Set(ports)].sort()).toEqual(['443/TCP', '53/TCP', '53/UDP']);
    const https = np.spec.egress.find((r) => r.ports.some((p) => p.port === 443))!;
    expect(https.to.every((t) => t.ipBlock !== undefined)).toBe(true);
  });
});
