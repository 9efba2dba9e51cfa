/**
 * Upstream's `ValidateService` for the fields the reference server keeps: type, ports (required
 * unless headless or ExternalName, named when several, valid numbers and target ports, unique
 * names and protocols) and the external name.
 */
import {
  fieldErrors,
  isDns1123Label,
  isDns1123Subdomain,
  isValidPortName,
  isValidPortNum,
  type StatusCause,
} from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import { protocols } from './pod-spec.js';

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'] as const;
const sessionAffinities = ['ClientIP', 'None'] as const;

export function validateServiceSpec(spec: unknown): StatusCause[] {
  if (!isJsonObject(spec)) return [fieldErrors.required('spec')];
  const causes: StatusCause[] = [];
  const type = spec.type ?? 'ClusterIP';
  if (!(serviceTypes as readonly unknown[]).includes(type))
    causes.push(fieldErrors.notSupported('spec.type', type, serviceTypes));
  if (
    spec.sessionAffinity !== undefined &&
    !(sessionAffinities as readonly unknown[]).includes(spec.sessionAffinity)
  )
    causes.push(fieldErrors.notSupported('spec.sessionAffinity', spec.sessionAffinity, sessionAffinities));
  if (type === 'ExternalName') {
    const name = spec.externalName;
    if (typeof name !== 'string' || name === '') causes.push(fieldErrors.required('spec.externalName'));
    else
      for (const msg of isDns1123Subdomain(name))
        causes.push(fieldErrors.invalid('spec.externalName', name, msg));
  }
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  const headless = spec.clusterIP === 'None';
  if (ports.length === 0 && !headless && type !== 'ExternalName')
    causes.push(fieldErrors.required('spec.ports'));
  const names = new Set<string>();
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    if (!isJsonObject(p)) return;
    const at = `spec.ports[${i}]`;
    const name = typeof p.name === 'string' ? p.name : '';
    if (ports.length > 1 && name === '') causes.push(fieldErrors.required(`${at}.name`));
    if (name !== '') {
      // A Service port name is a DNS-1123 label (`kubectl create service --tcp=80:8080` names it
      // `80-8080`), not the IANA service name a container port has.
      for (const msg of isDns1123Label(name)) causes.push(fieldErrors.invalid(`${at}.name`, name, msg));
      if (names.has(name)) causes.push(fieldErrors.duplicate(`${at}.name`, name));
      names.add(name);
    }
    if (typeof p.port === 'number')
      for (const msg of isValidPortNum(p.port)) causes.push(fieldErrors.invalid(`${at}.port`, p.port, msg));
    else if (p.port === undefined) causes.push(fieldErrors.required(`${at}.port`));
    const protocol = p.protocol ?? 'TCP';
    if (!(protocols as readonly unknown[]).includes(protocol))
      causes.push(fieldErrors.notSupported(`${at}.protocol`, protocol, protocols));
    const key = `${String(p.port)}/${String(protocol)}`;
    if (seen.has(key)) causes.push(fieldErrors.duplicate(`${at}`, { port: p.port, protocol }));
    seen.add(key);
    const target = p.targetPort;
    if (typeof target === 'number' && target !== 0)
      for (const msg of isValidPortNum(target))
        causes.push(fieldErrors.invalid(`${at}.targetPort`, target, msg));
    else if (typeof target === 'string')
      for (const msg of isValidPortName(target))
        causes.push(fieldErrors.invalid(`${at}.targetPort`, target, msg));
    if (typeof p.nodePort === 'number' && p.nodePort !== 0) {
      if (type !== 'NodePort' && type !== 'LoadBalancer')
        causes.push(
          fieldErrors.forbidden(`${at}.nodePort`, `may not be used when \`type\` is '${String(type)}'`),
        );
      else
        for (const msg of isValidPortNum(p.nodePort))
          causes.push(fieldErrors.invalid(`${at}.nodePort`, p.nodePort, msg));
    }
  });
  return causes;
}
