/**
 * Reading an `apiserver.config.<domain>` configuration file (AuthenticationConfiguration,
 * AuthorizationConfiguration): size bound, YAML or JSON with unique keys and bounded aliases, and zod
 * issues turned into upstream's field errors. Shared by every structured configuration file.
 */
import { type CelEnv, type CelType, compile, isCelError, type Program } from '@orchard/cel';
import { type FieldCause, fieldErrors } from '@orchard/meta';
import { aggregateMessage, configSchemaCauses } from '@orchard/meta/internal';
import { parseDocument } from 'yaml';
import type { z } from 'zod';

/**
 * Options of `parseConfigDocument`: the file name errors start with, the size bound, the kind the
 * document must be, and how an error is made (each configuration speaks its own error class).
 */
export interface ConfigDocumentOptions {
  /** The file name every message starts with. */
  readonly file: string;
  /** A text larger than this (bytes) is refused before parsing. */
  readonly maxBytes: number;
  /** The `kind` the document claims (named when the top level is not an object). */
  readonly kind: string;
  /** Makes the error thrown for `message` (already prefixed with the file name). */
  readonly fail: (message: string) => Error;
}

/**
 * Parses `text` as one YAML (or JSON) mapping: refused when larger than `maxBytes`, when not valid
 * (with the line and column), when it repeats a key, or when its top level is not an object. Throws
 * `options.fail(message)`; never returns anything but a plain object.
 */
export function parseConfigDocument(text: string, options: ConfigDocumentOptions): Record<string, unknown> {
  const { file, fail } = options;
  if (Buffer.byteLength(text) > options.maxBytes)
    throw fail(`${file}: larger than ${options.maxBytes} bytes`);
  let raw: unknown;
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0];
    throw fail(
      `${file}${line ? `:${line.line}:${line.col}` : ''}: not valid YAML or JSON: ${e.message.split('\n')[0]}`,
    );
  }
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw fail(`${file}: not valid YAML or JSON: ${(e as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw fail(`${file}: not an ${options.kind} object`);
  return raw as Record<string, unknown>;
}

// formatFieldPath and configSchemaCauses live in @orchard/meta/internal (the encryption and audit
// configurations use them too); re-exported here under the names authn always had.
export { configSchemaCauses, formatFieldPath } from '@orchard/meta/internal';

/**
 * Checks `raw` against the strict `schema`: the parsed value, or `fail` with every field error joined
 * as upstream's aggregate (`file: [a, b]`); a document nested too deeply for the checker is refused.
 */
export function parseConfigSchema<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  options: Omit<ConfigDocumentOptions, 'maxBytes'>,
): T {
  let r: ReturnType<typeof schema.safeParse>;
  try {
    r = schema.safeParse(raw, { reportInput: true });
  } catch (e) {
    if (e instanceof RangeError) throw options.fail(`${options.file}: nested too deeply`);
    throw e;
  }
  if (!r.success)
    throw options.fail(`${options.file}: ${aggregateMessage(configSchemaCauses(r.error, options.kind))}`);
  return r.data;
}

/**
 * Compiles one expression of a configuration file against `env` (with `outputType` when given); on
 * failure pushes upstream's `<field>: Invalid value: "<expr>": compilation failed: …` to `causes` and
 * returns undefined. Never throws.
 */
export function compileConfigExpression(
  expression: string,
  env: CelEnv,
  field: string,
  causes: FieldCause[],
  outputType?: CelType,
): Program | undefined {
  try {
    return compile(expression, env, outputType ? { outputType } : {});
  } catch (e) {
    causes.push(
      fieldErrors.invalid(
        field,
        expression,
        `compilation failed: ${isCelError(e) ? e.message : String((e as Error)?.message ?? e)}`,
      ),
    );
    return undefined;
  }
}
