/**
 * Writes deploy/kubernetes/monitoring.yaml from deploy/prometheus/alerts.yml:
 *
 *   npm run kubernetes:monitoring
 */
import fs from 'node:fs';
import path from 'node:path';
import { MONITORING_FILE, ROOT, monitoringYaml } from './monitoring.js';

const text = await monitoringYaml();
const before = fs.existsSync(MONITORING_FILE) ? fs.readFileSync(MONITORING_FILE, 'utf8') : '';
fs.writeFileSync(MONITORING_FILE, text);
console.log(`${path.relative(ROOT, MONITORING_FILE)}: ${before === text ? 'unchanged' : 'written'}`);
