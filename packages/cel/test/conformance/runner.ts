/**
 * The cel-spec conformance runner: runs the core tests of `@bufbuild/cel-spec` through the public
 * API of @orchard/cel (createEnv → compile → evaluate), not through the underlying engine.
 *
 * "Core" = every section of the conformance suite except the extension libraries (sections named
 * `*_ext`) and the sections about protobuf messages and unknowns (`proto2`, `proto3`, `enums`,
 * `wrappers`, `dynamic`, `unknowns`); within the core sections, tests that need protobuf message types (TestAllTypes,
 * wrapper types, Any/Struct/Value) are counted as not applicable, since Orchard's CEL values are
 * JSON objects, not protobuf messages. Nothing else is set aside: tests marked `disableCheck`
 * run through `compile(expr, env, { check: false })` (an unchecked program, as in cel-go), and
 * declared functions through `createEnv({ functions })`.
 */

import { isDeepStrictEqual } from 'node:util';
import type { IncrementalTest, IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { getConformanceSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { compile, createEnv, isCelError, timestampFromNanos, timestampNanos } from '../../src/index.js';
import { costRegionOptions } from '../../src/patches/cost-regions.js';

export const excludedSections: ReadonlySet<string> = new Set([
  'proto2',
  'proto3',
  'enums',
  'wrappers',
  'dynamic',
  'unknowns',
]);

export type Outcome = 'pass' | 'fail' | 'n/a';

export interface CaseResult {
  /** `section/suite/test`. */
  id: string;
  section: string;
  outcome: Outcome;
  /** Why it failed or is not applicable. */
  detail?: string;
}

type Any = any;

const PROTO =
  /TestAllTypes|NestedTestAllTypes|NestedMessage|NestedEnum|GlobalEnum|google\.protobuf\.(Any|Struct|Value|ListValue|NullValue|\w+Value\b)|cel\.expr\.conformance/;

class NotApplicable extends Error {}

function typeString(t: Any): string {
  const k = t?.typeKind;
  switch (k?.case) {
    case 'dyn':
      return 'dyn';
    case 'null':
      return 'null';
    case 'primitive':
      return ['dyn', 'bool', 'int', 'uint', 'double', 'string', 'bytes'][k.value] ?? 'dyn';
    case 'wellKnown':
      if (k.value === 2) return 'google.protobuf.Timestamp';
      if (k.value === 3) return 'google.protobuf.Duration';
      throw new NotApplicable('google.protobuf.Any variable');
    case 'listType':
      return `list<${typeString(k.value.elemType)}>`;
    case 'mapType':
      return `map<${typeString(k.value.keyType)}, ${typeString(k.value.valueType)}>`;
    case 'abstractType':
      if (k.value.name === 'optional_type') return `optional<${typeString(k.value.parameterTypes[0])}>`;
      throw new NotApplicable(`abstract type ${k.value.name}`);
    case 'type':
      return 'type';
    case 'messageType':
      // the well-known timestamp and duration types are CEL types, not protobuf messages to us
      if (k.value === 'google.protobuf.Timestamp' || k.value === 'google.protobuf.Duration') return k.value;
      throw new NotApplicable(`protobuf message type ${k.value}`);
    case 'wrapper':
      throw new NotApplicable('protobuf wrapper type');
    default:
      throw new NotApplicable(`type ${k?.case}`);
  }
}

function readVarint(b: Uint8Array, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  let p = pos;
  for (;;) {
    const byte = b[p++] as number;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
    shift += 7n;
  }
  return [result, p];
}

/** Decodes google.protobuf.Duration / Timestamp bytes: field 1 int64 seconds, field 2 int32 nanos. */
function decodeSecondsNanos(b: Uint8Array): [bigint, number] {
  let seconds = 0n;
  let nanos = 0;
  let p = 0;
  while (p < b.length) {
    const [tag, np] = readVarint(b, p);
    const [v, vp] = readVarint(b, np);
    p = vp;
    if (tag >> 3n === 1n) seconds = BigInt.asIntN(64, v);
    else if (tag >> 3n === 2n) nanos = Number(BigInt.asIntN(32, v));
  }
  return [seconds, nanos];
}

export function toValue(v: Any): unknown {
  const k = v?.kind;
  switch (k?.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'stringValue':
    case 'doubleValue':
      return k.value;
    case 'int64Value':
      return BigInt(k.value);
    case 'uint64Value':
      return new UnsignedInt(BigInt(k.value));
    case 'bytesValue':
      return new Uint8Array(k.value);
    case 'listValue':
      return k.value.values.map(toValue);
    case 'mapValue': {
      const m = new Map<unknown, unknown>();
      for (const e of k.value.entries) m.set(toValue(e.key), toValue(e.value));
      return m;
    }
    case 'typeValue':
      return { __type: k.value };
    case 'objectValue': {
      const url: string = k.value.typeUrl;
      if (url.endsWith('google.protobuf.Duration')) {
        const [s, n] = decodeSecondsNanos(k.value.value);
        return new Duration(s, n);
      }
      if (url.endsWith('google.protobuf.Timestamp')) {
        const [s, n] = decodeSecondsNanos(k.value.value);
        return { __timestamp: s * 1_000_000_000n + BigInt(n) };
      }
      throw new NotApplicable(`protobuf message value ${url}`);
    }
    case 'enumValue':
      throw new NotApplicable('enum value');
    default:
      throw new NotApplicable(`value kind ${k?.case}`);
  }
}

function bindingValue(v: Any): unknown {
  const val = toValue(v);
  return fromExpected(val);
}

/** Turns an expected-value marker into the engine's runtime value (for bindings). */
function fromExpected(v: unknown): unknown {
  if (v instanceof Map) {
    const allStrings = [...v.keys()].every((k) => typeof k === 'string');
    if (allStrings) return Object.fromEntries([...v.entries()].map(([k, x]) => [k, fromExpected(x)]));
    return new Map([...v.entries()].map(([k, x]) => [k, fromExpected(x)]));
  }
  if (Array.isArray(v)) return v.map(fromExpected);
  if (typeof v === 'object' && v !== null && '__timestamp' in v)
    return timestampFromNanos((v as { __timestamp: bigint }).__timestamp);
  return v;
}

function entriesOf(v: unknown): [unknown, unknown][] | undefined {
  if (v instanceof Map) return [...v.entries()];
  if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)
    return Object.entries(v);
  return undefined;
}

/** Strict CEL value equality for checking results: types must agree (1 ≠ 1.0 ≠ 1u). */
export function sameValue(expected: unknown, actual: unknown): boolean {
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return false;
    return Number.isNaN(expected) ? Number.isNaN(actual) : expected === actual;
  }
  if (typeof expected !== 'object' || expected === null) return expected === actual;
  if (expected instanceof UnsignedInt)
    return actual instanceof UnsignedInt && actual.value === expected.value;
  if (expected instanceof Uint8Array)
    return (
      actual instanceof Uint8Array &&
      actual.length === expected.length &&
      actual.every((x, i) => x === expected[i])
    );
  if (expected instanceof Duration)
    return (
      actual instanceof Duration && actual.seconds === expected.seconds && actual.nanos === expected.nanos
    );
  if ('__timestamp' in expected) {
    return (
      actual instanceof Date && timestampNanos(actual) === (expected as { __timestamp: bigint }).__timestamp
    );
  }
  if ('__type' in expected) {
    // the engine names the null type `null`; the spec calls it `null_type`
    const name = (actual as { name?: string } | null)?.name;
    return (name === 'null' ? 'null_type' : name) === (expected as { __type: string }).__type;
  }
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((x, i) => sameValue(x, actual[i]))
    );
  if (expected instanceof Map) {
    const ae = entriesOf(actual);
    if (ae === undefined || ae.length !== expected.size) return false;
    for (const [k, v] of expected) {
      const hit = ae.find(([ak]) => sameKey(k, ak));
      if (hit === undefined || !sameValue(v, hit[1])) return false;
    }
    return true;
  }
  return false;
}

function sameKey(a: unknown, b: unknown): boolean {
  if (a instanceof UnsignedInt && b instanceof UnsignedInt) return a.value === b.value;
  return a === b;
}

function format(v: unknown): string {
  return (
    JSON.stringify(v, (_k, x) =>
      typeof x === 'bigint'
        ? `${x}n`
        : x instanceof Map
          ? Object.fromEntries(x)
          : x instanceof Optional
            ? 'optional'
            : x,
    ) ?? String(v)
  );
}

function runOne(section: string, path: string, t: IncrementalTest): CaseResult {
  const id = `${path}/${t.name}`;
  const o = t.original as Any;
  const result = (outcome: Outcome, detail?: string): CaseResult =>
    detail === undefined ? { id, section, outcome } : { id, section, outcome, detail };
  try {
    if (PROTO.test(o.expr) || PROTO.test(o.container ?? ''))
      throw new NotApplicable('uses protobuf message types');
    const variables: Record<string, string> = {};
    const functions: Record<string, () => unknown> = {};
    for (const d of o.typeEnv ?? []) {
      if (d.declKind?.case === 'ident') {
        variables[d.name] = typeString(d.declKind.value.type);
        continue;
      }
      for (const ov of d.declKind?.value?.overloads ?? []) {
        let params: string[];
        let res: string;
        try {
          params = ov.params.map(typeString);
          res = typeString(ov.resultType);
        } catch (e) {
          if (e instanceof NotApplicable)
            return result('fail', `declares a function over a type the engine cannot declare (${e.message})`);
          throw e;
        }
        const sig = ov.isInstanceFunction
          ? `${params[0]}.${d.name}(${params.slice(1).join(', ')}): ${res}`
          : `${d.name}(${params.join(', ')}): ${res}`;
        functions[sig] = () => {
          throw new Error(`${d.name} is declared without an implementation`);
        };
      }
    }
    const activation: Record<string, unknown> = {};
    for (const [name, ev] of Object.entries(o.bindings ?? {})) {
      activation[name] = bindingValue((ev as Any).kind?.value);
      // unchecked programs read undeclared identifiers from the activation
      if (!o.disableCheck) variables[name] ??= 'dyn';
    }
    const matcher = o.resultMatcher;
    let program: ReturnType<typeof compile>;
    try {
      const env = createEnv({ variables, functions, ...(o.container ? { container: o.container } : {}) });
      program = compile(o.expr, env, o.disableCheck ? { check: false } : {});
    } catch (e) {
      if (!isCelError(e)) throw e;
      // a static error is an acceptable answer where an error is expected
      if (
        (matcher?.case === 'evalError' || matcher?.case === 'anyEvalErrors') &&
        (e.code === 'type-check' || e.code === 'parse')
      )
        return result('pass');
      return result('fail', `compile: ${e.code}: ${e.summary}`);
    }
    if (o.checkOnly) {
      if (matcher?.case === 'typedResult' && matcher.value.deducedType) {
        const want = typeString(matcher.value.deducedType);
        return program.outputType === want ||
          (want.startsWith('list') && program.outputType === 'list') ||
          (want.startsWith('map') && program.outputType === 'map')
          ? result('pass')
          : result('fail', `deduced type ${program.outputType}, want ${want}`);
      }
      return result('pass');
    }
    const disagreement = costPassesDisagree(program, activation);
    if (disagreement !== undefined) return result('fail', disagreement);
    let actual: unknown;
    try {
      actual = program.evaluate(activation);
    } catch (e) {
      if (!isCelError(e)) throw e;
      if (matcher?.case === 'evalError' || matcher?.case === 'anyEvalErrors' || matcher?.case === undefined)
        return result('pass');
      return result('fail', `evaluate: ${e.code}: ${e.summary}`);
    }
    switch (matcher?.case) {
      case 'value': {
        const want = toValue(matcher.value);
        return sameValue(want, actual)
          ? result('pass')
          : result('fail', `got ${format(actual)}, want ${format(want)}`);
      }
      case 'typedResult': {
        const want = toValue(matcher.value.result);
        return sameValue(want, actual)
          ? result('pass')
          : result('fail', `got ${format(actual)}, want ${format(want)}`);
      }
      case 'evalError':
      case 'anyEvalErrors':
        return result('fail', `got ${format(actual)}, want an error`);
      case 'unknown':
      case 'anyUnknowns':
        throw new NotApplicable('unknown values');
      default:
        return actual === true ? result('pass') : result('fail', `got ${format(actual)}, want true`);
    }
  } catch (e) {
    if (e instanceof NotApplicable) return result('n/a', e.message);
    return result('fail', `threw ${(e as Error).name}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** One evaluation's outcome, for comparing the two cost passes. */
function outcomeOf(program: ReturnType<typeof compile>, activation: Record<string, unknown>): unknown {
  try {
    return program.evaluateWithCost(activation);
  } catch (e) {
    return isCelError(e) ? `${e.code}: ${e.summary}` : e;
  }
}

/**
 * The region cost pass (src/patches/cost-regions.ts) must give what the per-node hook gives: the
 * same value or error and the same cost, on every conformance test.
 */
function costPassesDisagree(
  program: ReturnType<typeof compile>,
  activation: Record<string, unknown>,
): string | undefined {
  const fast = outcomeOf(program, activation);
  costRegionOptions.perNodeOnly = true;
  let exact: unknown;
  try {
    exact = outcomeOf(program, activation);
  } finally {
    costRegionOptions.perNodeOnly = false;
  }
  const same =
    typeof fast === 'string' || typeof exact === 'string'
      ? fast === exact
      : (fast as { cost: number }).cost === (exact as { cost: number }).cost &&
        isDeepStrictEqual((exact as { value: unknown }).value, (fast as { value: unknown }).value);
  return same ? undefined : `cost passes disagree: regions ${format(fast)}, per node ${format(exact)}`;
}

function collect(section: string, path: string, suite: IncrementalTestSuite, out: CaseResult[]): void {
  for (const t of suite.tests) out.push(runOne(section, path, t));
  for (const s of suite.suites) collect(section, `${path}/${s.name}`, s, out);
}

/** Runs every core test and reports each outcome. */
export function runConformance(): CaseResult[] {
  const out: CaseResult[] = [];
  for (const section of getConformanceSuite().suites) {
    if (excludedSections.has(section.name) || section.name.endsWith('_ext')) continue;
    collect(section.name, section.name, section, out);
  }
  return out;
}

export interface SectionSummary {
  section: string;
  pass: number;
  fail: number;
  notApplicable: number;
}

export function summarize(results: readonly CaseResult[]): SectionSummary[] {
  const by = new Map<string, SectionSummary>();
  for (const r of results) {
    let s = by.get(r.section);
    if (s === undefined) {
      s = { section: r.section, pass: 0, fail: 0, notApplicable: 0 };
      by.set(r.section, s);
    }
    if (r.outcome === 'pass') s.pass++;
    else if (r.outcome === 'fail') s.fail++;
    else s.notApplicable++;
  }
  return [...by.values()];
}
