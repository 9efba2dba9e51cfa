/**
 * Name and label validation with upstream's rules and messages (apimachinery `util/validation`),
 * plus `generateName` and UID generation. Every validator returns a list of messages: empty = valid.
 */

/** A function validating an object name; `prefix` is true when validating a `generateName`. */
export type NameValidator = (name: string, prefix: boolean) => string[];

/** Longest DNS-1123 label (63). */
export const dns1123LabelMaxLength = 63;
/** Longest DNS-1123 subdomain (253). */
export const dns1123SubdomainMaxLength = 253;
/** Longest name part of a qualified name (63). */
export const qualifiedNameMaxLength = 63;
/** Longest label value (63). */
export const labelValueMaxLength = 63;

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);

const qualifiedNameCharFmt = '[A-Za-z0-9]';
const qualifiedNameExtCharFmt = '[-A-Za-z0-9_.]';
const qualifiedNameFmt = `(${qualifiedNameCharFmt}${qualifiedNameExtCharFmt}*)?${qualifiedNameCharFmt}`;
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueRe = new RegExp(`^${labelValueFmt}$`);

/** `must be no more than N characters` */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** Upstream's message for an empty value. */
export function emptyError(): string {
  return 'must be non-empty';
}

/** Upstream's RegexError wording, including its `'a',  or 'b'` spacing. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) s += ' or ';
    s += `'${ex}', `;
  });
  return `${s}regex used for validation is '${fmt}')`;
}

/** DNS-1123 label (RFC 1123): at most 63 lowercase alphanumerics or `-`, alphanumeric at both ends. */
export function isDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!dns1123LabelRe.test(value)) {
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

/** DNS-1123 subdomain: at most 253 characters, dot-separated DNS-1123 labels. */
export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!dns1123SubdomainRe.test(value)) {
    errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  }
  return errs;
}

/** A qualified name (label/annotation key, finalizer): `[prefix/]name`, prefix a DNS-1123 subdomain. */
/** Valid qualified names in one test (lengths checked apart), so the common case allocates nothing. */
const validQualifiedNameRe = new RegExp(`^(?:${dns1123SubdomainFmt}/)?${qualifiedNameFmt}$`);

/**
 * Checks a label key or qualified name (`prefix/name`); returns upstream's error messages, empty when
 * valid.
 */
export function isQualifiedName(value: string): string[] {
  if (validQualifiedNameRe.test(value)) {
    const slash = value.indexOf('/');
    if (slash <= dns1123SubdomainMaxLength && value.length - slash - 1 <= qualifiedNameMaxLength) return [];
  }
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] as string;
  } else if (parts.length === 2) {
    const prefix = parts[0] as string;
    name = parts[1] as string;
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else for (const m of isDns1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    errs.push(
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    );
    return errs;
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (name.length > qualifiedNameMaxLength)
    errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  if (!qualifiedNameRe.test(name)) {
    errs.push(
      `name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return errs;
}

/** A label value: empty, or at most 63 characters of `[-A-Za-z0-9_.]`, alphanumeric at both ends. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength));
  if (!labelValueRe.test(value)) {
    errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);

/** DNS-1035 label (service names): at most 63 characters, starts with a letter. */
export function isDns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!dns1035LabelRe.test(value))
    errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

/** `.`, `..` and a `..` prefix would escape a directory when the key becomes a file name. */
function chDirPrefixErrors(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyRe = new RegExp(`^${configMapKeyFmt}$`);

/** A ConfigMap/Secret data key: at most 253 characters of `[-._a-zA-Z0-9]`, not `.`/`..`/`..*`. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!configMapKeyRe.test(value)) {
    errs.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        configMapKeyFmt,
        'key.name',
        'KEY_NAME',
        'key-name',
      ),
    );
  }
  errs.push(...chDirPrefixErrors(value));
  return errs;
}

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const envVarNameRe = new RegExp(`^${envVarNameFmt}$`);

/** An environment variable name (strict form, as without RelaxedEnvironmentVariableValidation). */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!envVarNameRe.test(value)) {
    errs.push(
      regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        envVarNameFmt,
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  }
  errs.push(...chDirPrefixErrors(value));
  return errs;
}

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const cIdentifierRe = new RegExp(`^${cIdentifierFmt}$`);

/** A C identifier. */
export function isCIdentifier(value: string): string[] {
  if (cIdentifierRe.test(value)) return [];
  return [
    regexError(
      "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'",
      cIdentifierFmt,
      'my_name',
      'MY_NAME',
      'MyName',
    ),
  ];
}

/** A port number: 1–65535. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535
    ? []
    : ['must be between 1 and 65535, inclusive'];
}

/** A port name (IANA_SVC_NAME): at most 15 of `[-a-z0-9]`, a letter, no `--`, no edge hyphen. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port))
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-')))
    errs.push('must not begin or end with a hyphen');
  return errs;
}

/** Names that are used as one path segment: anything but `.`/`..` and `/` or `%`. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return isValidPathSegmentPrefix(name);
}

/** A `generateName` for a path-segment name: only the forbidden characters matter. */
export function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const illegal of ['/', '%']) {
    if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  }
  return errs;
}

/** A generateName may end in `-`; it is checked as if the generated suffix followed it. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

/** Object names that are DNS-1123 subdomains (most resource types). */
export const nameIsDnsSubdomain: NameValidator = (name, prefix) =>
  isDns1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** Object names that are DNS-1123 labels (namespaces, services). */
export const nameIsDnsLabel: NameValidator = (name, prefix) =>
  isDns1123Label(prefix ? maskTrailingDash(name) : name);

/** Object names that only need to be one path segment (e.g. RBAC roles). */
export const nameIsPathSegment: NameValidator = (name, prefix) =>
  prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);

/** Object names that are DNS-1035 labels (services). */
export const nameIsDns1035Label: NameValidator = (name, prefix) =>
  isDns1035Label(prefix ? maskTrailingDash(name) : name);

/** Namespace names are DNS-1123 labels. */
export const validateNamespaceName: NameValidator = nameIsDnsLabel;

/** The alphabet of generated suffixes: no vowels (no words), no `0 1 3` (look like letters). */
export const generateNameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
/** Random characters `generateName` appends (5, as upstream). */
export const generateNameRandomLength = 5;
/** Longest generated name: base truncated so base + suffix fits a DNS-1123 label. */
export const generateNameMaxLength = 63;
const maxGeneratedBaseLength = generateNameMaxLength - generateNameRandomLength;

/**
 * Random bytes drawn from the platform's CSPRNG a pool at a time: one `getRandomValues` call per
 * 4 KiB instead of one per generated name (it was 5.5% of a create's CPU).
 */
const randomPool = new Uint8Array(4096);
let randomPoolAt = randomPool.length;

function randomByte(): number {
  if (randomPoolAt === randomPool.length) {
    globalThis.crypto.getRandomValues(randomPool);
    randomPoolAt = 0;
  }
  return randomPool[randomPoolAt++] as number;
}

/** Random string of `n` characters from `generateNameAlphabet`, unbiased (rejection sampling). */
export function randomString(n: number): string {
  const alphabet = generateNameAlphabet;
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < n) {
    const b = randomByte();
    if (b < limit) out += alphabet[b % alphabet.length];
  }
  return out;
}

/** `base` + 5 random characters, `base` truncated to 58 characters (upstream SimpleNameGenerator). */
export function generateName(base: string): string {
  const b = base.length > maxGeneratedBaseLength ? base.slice(0, maxGeneratedBaseLength) : base;
  return b + randomString(generateNameRandomLength);
}

/** A new RFC 4122 version-4 UID. */
export function newUid(): string {
  return globalThis.crypto.randomUUID();
}
