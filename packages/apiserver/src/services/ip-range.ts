/**
 * The ranges Service allocation draws from: `--service-cluster-ip-range` (an IPv4 or IPv6 CIDR) and
 * `--service-node-port-range` (`30000-32767`), parsed and bounded as upstream's kube-apiserver
 * flags are.
 */

/** `IPv4` or `IPv6`, as a Service's `spec.ipFamilies` names them. */
export type IpFamily = 'IPv4' | 'IPv6';

/** The allocatable addresses of a service CIDR: `size` addresses from `base`. */
export interface ServiceIpRange {
  readonly family: IpFamily;
  /** The CIDR as given, normalised (`10.0.0.0/24`); appears in "not in the valid range" messages. */
  readonly cidr: string;
  /** First allocatable address (the network address + 1). */
  readonly base: bigint;
  /** Allocatable addresses: the CIDR less its network address (and, for IPv4, its broadcast address). */
  readonly size: number;
}

/** A node-port range: `size` ports from `base` (upstream's `PortRange`). */
export interface PortRange {
  readonly base: number;
  readonly size: number;
}

/** Upstream kube-apiserver's default service CIDR when the flag is not given (`DefaultServiceIPCIDR`). */
export const defaultServiceClusterIpRange = '10.0.0.0/24';
/** Upstream's default `--service-node-port-range` (`DefaultServiceNodePortRange`). */
export const defaultServiceNodePortRange = '30000-32767';
/** Upstream refuses service CIDRs with more host bits than this ("mask must be >= 12" for IPv4). */
export const maxServiceCidrHostBits = 20;

/** Parses a dotted IPv4 or an IPv6 address (no zone); undefined when it is neither. */
export function parseIp(text: string): { family: IpFamily; value: bigint } | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) {
    const parts = text.split('.').map(Number);
    // Go's ParseIP refuses leading zeros ("010.0.0.1").
    if (parts.some((p) => p > 255) || text.split('.').some((p) => p.length > 1 && p.startsWith('0')))
      return undefined;
    return { family: 'IPv4', value: parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n) };
  }
  // IPv6 with an embedded dotted quad is not accepted (no service CIDR needs it).
  if (!text.includes(':') || !/^[0-9a-fA-F:]+$/.test(text)) return undefined;
  let groups: string[];
  const body = text;
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const split = (s: string) => (s === '' ? [] : s.split(':'));
  if (halves.length === 2) {
    const head = split(halves[0] as string);
    const rest = split(halves[1] as string);
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return undefined;
    groups = [...head, ...Array<string>(missing).fill('0'), ...rest];
  } else groups = split(body);
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  const words = groups.map((g) => BigInt(Number.parseInt(g, 16)));
  return { family: 'IPv6', value: words.reduce((acc, w) => (acc << 16n) | w, 0n) };
}

/** The canonical text of an address (Go's `net.IP.String()`: dotted IPv4, compressed IPv6). */
export function formatIp(family: IpFamily, value: bigint): string {
  if (family === 'IPv4') return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  const words = [...Array(8).keys()].map((i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  // The longest run of two or more zero words becomes `::` (the first one on a tie).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(':');
  if (best < 0) return hex(words);
  return `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
}

/**
 * Parses `--service-cluster-ip-range`. One CIDR (dual-stack pairs are not supported); refused with a
 * message naming the flag when malformed or larger than upstream allows.
 */
export function parseServiceIpRange(text: string): ServiceIpRange {
  const flag = '--service-cluster-ip-range';
  const m = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
  const ip = m ? parseIp(m[1] as string) : undefined;
  if (text.includes(','))
    throw new Error(`${flag} ${text}: dual-stack ranges are not supported; give one CIDR`);
  if (!m || !ip) throw new Error(`${flag} ${text}: invalid CIDR address`);
  const bits = ip.family === 'IPv4' ? 32 : 128;
  const prefix = Number(m[2]);
  if (prefix > bits) throw new Error(`${flag} ${text}: invalid CIDR address`);
  const hostBits = bits - prefix;
  if (hostBits > maxServiceCidrHostBits)
    throw new Error(
      `${flag} ${text}: specified --service-cluster-ip-range is too large; for ${bits}-bit addresses, the mask must be >= ${bits - maxServiceCidrHostBits}`,
    );
  const network = (ip.value >> BigInt(hostBits)) << BigInt(hostBits);
  const total = 2 ** hostBits;
  // Upstream skips the network address, and for IPv4 the broadcast address too.
  const size = ip.family === 'IPv4' ? total - 2 : total - 1;
  if (size < 1) throw new Error(`${flag} ${text}: the range holds no allocatable address`);
  return { family: ip.family, cidr: `${formatIp(ip.family, network)}/${prefix}`, base: network + 1n, size };
}

/** Parses `--service-node-port-range`: `base-last` or one port, as upstream's `PortRange`. */
export function parsePortRange(text: string): PortRange {
  const flag = '--service-node-port-range';
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text.trim());
  if (!m) throw new Error(`${flag} ${text}: unable to parse port range (want e.g. 30000-32767)`);
  const low = Number(m[1]);
  const high = m[2] === undefined ? low : Number(m[2]);
  if (low < 1 || high > 65535 || high < low)
    throw new Error(`${flag} ${text}: the range must lie within 1-65535 with its start at most its end`);
  return { base: low, size: high - low + 1 };
}

/**
 * The static band at the bottom of a range (upstream's `calculateRangeOffset`, KEP-3070/3668):
 * `min(max(16, rangeSize / step), max)` values, 0 for a range of 16 or fewer. Automatic allocation
 * takes from above it first, so a value a user asks for by number rarely collides with one handed
 * out at random.
 */
export function staticBandSize(rangeSize: number, max: number, step: number): number {
  const min = 16;
  if (rangeSize <= min) return 0;
  return Math.min(Math.max(min, Math.floor(rangeSize / step)), max);
}

/** The static band of a service CIDR: its whole size (network address included), step 16, at most 256. */
export function ipStaticBand(r: ServiceIpRange): number {
  return staticBandSize(r.family === 'IPv4' ? r.size + 2 : r.size + 1, 256, 16);
}

/** The static band of a node-port range: step 32, at most 128. */
export function portStaticBand(r: PortRange): number {
  return staticBandSize(r.size, 128, 32);
}

/** Upstream's `PortRange.String()`: `30000-32767`. */
export function formatPortRange(r: PortRange): string {
  return `${r.base}-${r.base + r.size - 1}`;
}

/** The server options of the two range flags (absent = the defaults), checked so a bad one stops the start. */
export function serviceRangeOptions(
  ipRange: unknown,
  portRange: unknown,
): { serviceClusterIpRange?: string; serviceNodePortRange?: string } {
  const out: { serviceClusterIpRange?: string; serviceNodePortRange?: string } = {};
  if (typeof ipRange === 'string') out.serviceClusterIpRange = parseServiceIpRange(ipRange) && ipRange;
  if (typeof portRange === 'string') out.serviceNodePortRange = parsePortRange(portRange) && portRange;
  return out;
}
