import { readdirSync, readFileSync, statfsSync } from 'node:fs';
import * as os from 'node:os';

/** One address of the node as `status.addresses` lists it. */
export interface NodeAddress {
  readonly type: 'InternalIP' | 'ExternalIP' | 'Hostname' | 'InternalDNS' | 'ExternalDNS';
  readonly address: string;
}

/** What does not change while the agent runs: sizes and identity of the machine. */
export interface MachineInfo {
  /** Logical CPUs. */
  readonly cpus: number;
  /** Physical memory, bytes. */
  readonly memoryBytes: number;
  /** `/etc/machine-id` ('' when unreadable). */
  readonly machineID: string;
  /** `/sys/class/dmi/id/product_uuid` ('' when unreadable, as without root). */
  readonly systemUUID: string;
  /** `/proc/sys/kernel/random/boot_id`. */
  readonly bootID: string;
  /** `uname -r`. */
  readonly kernelVersion: string;
  /** `PRETTY_NAME` of `/etc/os-release`. */
  readonly osImage: string;
  /** GOOS form: `linux`, `darwin`, `windows`. */
  readonly operatingSystem: string;
  /** GOARCH form: `amd64`, `arm64` … */
  readonly architecture: string;
  /** The host name (lower case). */
  readonly hostname: string;
  /** The InternalIP (first non-internal IPv4, else global IPv6). */
  readonly addresses: readonly NodeAddress[];
}

/** The live signals the node conditions are computed from (read on every status check). */
export interface MachineSignals {
  /** `MemAvailable` of /proc/meminfo, bytes. */
  readonly memoryAvailableBytes: number;
  readonly memoryTotalBytes: number;
  /** Free bytes for unprivileged users on the root directory's filesystem. */
  readonly diskAvailableBytes: number;
  readonly diskTotalBytes: number;
  readonly inodesFree: number;
  readonly inodesTotal: number;
  /** Processes and threads in existence (`/proc/loadavg`'s total). */
  readonly pidsInUse: number;
  /** `/proc/sys/kernel/pid_max`. */
  readonly pidMax: number;
  /** Whether a non-loopback interface has an address. */
  readonly networkReady: boolean;
}

/** Where the agent reads its machine from; tests pass a fake one. */
export interface MachineProbe {
  info(): MachineInfo;
  signals(): MachineSignals;
}

const readText = (path: string): string => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
};

const goArch: Record<string, string> = {
  x64: 'amd64',
  ia32: '386',
  arm: 'arm',
  arm64: 'arm64',
  ppc64: 'ppc64le',
};
const goOs: Record<string, string> = { win32: 'windows', sunos: 'solaris' };

/** `PRETTY_NAME` of an os-release file's text ('' when absent). */
export function osReleasePrettyName(text: string): string {
  for (const line of text.split('\n')) {
    const m = /^PRETTY_NAME=(.*)$/.exec(line.trim());
    if (m?.[1] !== undefined) return m[1].replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
  }
  return '';
}

/** A /proc/meminfo field in bytes (undefined when missing). */
export function meminfoBytes(text: string, field: string): number | undefined {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text);
  return m?.[1] === undefined ? undefined : Number(m[1]) * 1024;
}

/**
 * The node's InternalIP: the first non-internal IPv4 address, else the first global IPv6 one. One
 * only: the server keys `status.addresses` by type (upstream's map-list schema).
 */
function interfaceAddresses(): NodeAddress[] {
  let v6: string | undefined;
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal) continue;
      if (a.family === 'IPv4') return [{ type: 'InternalIP', address: a.address }];
      if (a.family === 'IPv6' && v6 === undefined && !a.address.startsWith('fe80')) v6 = a.address;
    }
  }
  return v6 === undefined ? [] : [{ type: 'InternalIP', address: v6 }];
}

/**
 * The machine the agent runs on: Linux's /proc and /sys where they exist, Node's `os` module
 * otherwise. `rootDir` is the filesystem whose free space and inodes make DiskPressure.
 */
export function hostMachine(rootDir: string): MachineProbe {
  return {
    info() {
      const meminfo = readText('/proc/meminfo');
      return {
        cpus: os.availableParallelism?.() ?? os.cpus().length,
        memoryBytes: meminfoBytes(meminfo, 'MemTotal') ?? os.totalmem(),
        machineID: readText('/etc/machine-id'),
        systemUUID: readText('/sys/class/dmi/id/product_uuid'),
        bootID: readText('/proc/sys/kernel/random/boot_id'),
        kernelVersion: os.release(),
        osImage: osReleasePrettyName(readText('/etc/os-release')) || `${os.type()} ${os.release()}`,
        operatingSystem: goOs[process.platform] ?? process.platform,
        architecture: goArch[process.arch] ?? process.arch,
        hostname: os.hostname().toLowerCase(),
        addresses: interfaceAddresses(),
      };
    },
    signals() {
      const meminfo = readText('/proc/meminfo');
      const fsStats = statfsSync(rootDir);
      const loadavgTotal = Number(readText('/proc/loadavg').split(' ')[3]?.split('/')[1]);
      let pidsInUse = loadavgTotal;
      if (!Number.isFinite(pidsInUse)) {
        try {
          pidsInUse = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
        } catch {
          pidsInUse = 0;
        }
      }
      return {
        memoryAvailableBytes: meminfoBytes(meminfo, 'MemAvailable') ?? os.freemem(),
        memoryTotalBytes: meminfoBytes(meminfo, 'MemTotal') ?? os.totalmem(),
        diskAvailableBytes: fsStats.bavail * fsStats.bsize,
        diskTotalBytes: fsStats.blocks * fsStats.bsize,
        inodesFree: fsStats.ffree,
        inodesTotal: fsStats.files,
        pidsInUse,
        pidMax: Number(readText('/proc/sys/kernel/pid_max')) || 32768,
        networkReady: interfaceAddresses().length > 0,
      };
    },
  };
}
